import Hummingbird
import SwitchboardData
import SwitchboardJSON

/// LeanStorage's REST API over the app's data, as `/1.1/classes` answered on LeanCloud:
/// objects created, read, updated, deleted and queried, `/1.1/batch` and
/// `/1.1/scan/classes`. The IM classes (`_Conversation`, `_ConversationMemberInfo`,
/// `_Installation`; see `IMClasses`) are read and walked here too; they change only through
/// the IM API. Master key only (no ACLs here): `ServerRESTAPI` checks it as for its own routes.
/// `GET /1.1/classes/_ConversationMemberInfo` stays `ClientRESTAPI`'s: the router takes a
/// path's fixed segment before a parameter.
enum StorageRoutes {
    /// Bodies past this are refused (413). LeanStorage took objects up to 16 MB and batches
    /// up to 20 MB; an app's data read by hooks has no use for such objects, and a request
    /// is held in memory whole.
    static let maxBodyBytes = 4 * 1024 * 1024

    static func routes(_ appData: any AppData) -> [RESTRoute] {
        let saveFlags: [RESTField] = [.boolean("fetchWhenSave"), .boolean("new")]
        let selection: [RESTField] = [.string("include"), .string("keys")]
        func route(
            _ method: HTTPRequest.Method, _ path: String, _ summary: String, query: [RESTField], successStatus: HTTPResponse.Status = .ok,
            _ call: @escaping @Sendable (RESTCall) -> StorageCall
        ) -> RESTRoute {
            // A GET takes no body; the others take the object's fields, and SDK flags such as
            // `__ignore_hooks` (a DELETE's body has nothing else).
            RESTRoute(
                method, path, summary, query: query, moreFields: method != .get, successStatus: successStatus, maxBodyBytes: maxBodyBytes,
                replying: { try await call($0).run(on: appData) }
            )
        }
        return [
            route(.post, "/1.1/classes/{class_name}", "Create an object: 201 with its objectId and createdAt (all of it with fetchWhenSave or new), and Location", query: saveFlags, successStatus: .created) { call in
                .create(className: call.path("class_name"), body: call.body, parameters: call.query.json)
            },
            route(.get, "/1.1/classes/{class_name}", "Query a class: {results}, and count with count=1", query: [
                .string("where"), .string("order"), .integer("limit"), .integer("skip"), .boolean("count"),
            ] + selection) { call in
                .find(className: call.path("class_name"), parameters: call.query.json)
            },
            route(.get, "/1.1/classes/{class_name}/{object_id}", "An object ({} when there is none)", query: selection) { call in
                .fetch(className: call.path("class_name"), id: call.path("object_id"), parameters: call.query.json)
            },
            route(.put, "/1.1/classes/{class_name}/{object_id}", "Change an object's fields (values and __op operations); with where, only if it matches (else 305)", query: saveFlags + [.string("where")]) { call in
                .update(className: call.path("class_name"), id: call.path("object_id"), body: call.body, parameters: call.query.json)
            },
            route(.delete, "/1.1/classes/{class_name}/{object_id}", "Delete an object, or several (ids joined by commas); with where, only if it matches (else 305)", query: [.string("where")]) { call in
                .delete(className: call.path("class_name"), ids: call.path("object_id"), parameters: call.query.json)
            },
            route(.get, "/1.1/scan/classes/{class_name}", "Walk a class a page at a time, in scan_key order (the IM classes _Conversation, _ConversationMemberInfo and _Installation by objectId), from cursor: {results, cursor} (null at the end)", query: [
                .string("where"), .string("scan_key"), .string("cursor"), .integer("limit"),
            ]) { call in
                .scan(className: call.path("class_name"), parameters: call.query.json)
            },
            RESTRoute(
                .post, "/1.1/batch", "Several calls in order, each {method, path, body, params}: an array of {success} or {error} for them",
                body: [.objects("requests", required: true)], maxBodyBytes: maxBodyBytes,
                replying: { call in RESTReply(body: try await StorageBatch(call.body).run(on: appData)) }
            ),
        ]
    }
}
