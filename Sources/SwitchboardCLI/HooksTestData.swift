import Foundation
import Logging
import SwitchboardCore
import SwitchboardData
import SwitchboardJSON
import SwitchboardServer
import SwitchboardStore

/// The app data a `hooks test` run reads: rows from a fixtures file, kept in a scratch
/// database the run may write to and then throws away, or what the config's hooks read,
/// read-only.
enum HooksTestData {
    /// A fixtures file: `{"ClassName": [row, ...], "_Conversation": [row, ...]}`, rows in
    /// LeanStorage's REST form (`objectId`, `createdAt` and `updatedAt` optional); the IM
    /// classes' rows are read as the IM store's are (`FixtureClass`).
    static func fixtures(path: String, scratchDirectory: String) async throws -> any AppData {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw HooksTestDataError("cannot read \(path): \(error.localizedDescription)")
        }
        guard let classes = (try? JSONValue(parsing: text))?.objectValue else {
            throw HooksTestDataError("\(path) must hold a JSON object of class names to arrays of rows")
        }
        let store = try SQLiteStore(path: scratchDirectory + "/fixtures.sqlite")
        let now = SystemWallClock().now()
        var imRows: [String: [JSONValue]] = [:]
        for (className, rows) in classes.sorted(by: { $0.key < $1.key }) {
            guard let rows = rows.arrayValue else { throw HooksTestDataError("\(path): \(className) must be an array of rows") }
            do {
                let documents = try rows.map { try StoredDocument(importing: $0, className: className, now: now) }
                if IMClasses.names.contains(className) {
                    imRows[className] = documents.map(\.json)
                } else {
                    try await store.insert(documents)
                }
            } catch let refusal as StorageError {
                throw HooksTestDataError("\(path): \(className): \(refusal.message)")
            }
        }
        // An IM class the file leaves out has no rows, as a fresh server's.
        let imClasses = IMClasses.names.sorted().map { FixtureClass(name: $0, rows: imRows[$0] ?? []) }
        return LocalAppData(store: store, imClasses: IMClasses(imClasses))
    }

    /// The data the config's hooks read, read-only: its database's (SQLite or PostgreSQL),
    /// or that of the LeanStorage server `hooks.storage` names, with conversations from the
    /// database.
    static func store(of config: ServerConfig) async throws -> any AppData {
        if config.postgresURL == nil, !FileManager.default.fileExists(atPath: config.databasePath) {
            throw HooksTestDataError("no database at \(config.databasePath): start the server once, or give --data")
        }
        let store = try await ConfiguredStore.open(config, for: "hooks-test")
        var data: any AppData = LocalAppData(store: store, imClasses: .stored(in: store))
        if let external = config.hookStorage { data = RemoteAppData(storage: external, conversations: StoredConversations(store: store)) }
        return ReadOnlyAppData(data, reason: "hooks test reads the server's store and never writes to it")
    }
}

struct HooksTestDataError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
