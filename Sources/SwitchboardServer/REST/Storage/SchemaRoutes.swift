import SwitchboardData
import SwitchboardJSON

/// `GET /1.1/schemas`: the app's classes, as LeanCloud lists them (master key only), keyed
/// by name, each with its fields and their types. Here the fields are those every class
/// has; documents keep no schema of their own. Exports use it to find every class.
enum SchemaRoutes {
    static let commonFields: JSONValue = [
        "objectId": ["type": "String"], "createdAt": ["type": "Date"], "updatedAt": ["type": "Date"], "ACL": ["type": "ACL"],
    ]

    static func routes(_ appData: any AppData) -> [RESTRoute] {
        [
            RESTRoute(.get, "/1.1/schemas", "The app's classes: each class's name with its fields (objectId, createdAt, updatedAt, ACL) and their types") { _ in
                .object(Dictionary(uniqueKeysWithValues: try await appData.classNames().map { ($0, commonFields) }))
            },
        ]
    }
}
