import Foundation
import Testing

/// `GET /1.1/schemas`: the app's classes as LeanCloud listed them, which is how
/// `leancloud export` finds every class when none is named.
@Suite struct SchemaRESTTests {
    @Test func theAppsClassesAreListedWithTheIMOnes() async throws {
        let server = try await TestServer.start()
        let (empty, none) = try await server.rest("GET", "/1.1/schemas")
        #expect(empty == 200 && Set(none.keys) == ["_Conversation", "_ConversationMemberInfo", "_Installation"])

        for className in ["Blacklist", "Settings", "Blacklist", "_User", "Zebra"] {
            #expect(try await server.rest("POST", "/1.1/classes/\(className)", body: ["n": 1]).0 == 201)
        }
        let deleted = try #require(try await server.rest("POST", "/1.1/classes/Gone", body: [:]).1["objectId"] as? String)
        #expect(try await server.rest("DELETE", "/1.1/classes/Gone/\(deleted)").0 == 200)

        let (status, schemas) = try await server.rest("GET", "/1.1/schemas")
        #expect(status == 200)
        // A class whose objects were all deleted is no longer there.
        #expect(Set(schemas.keys) == ["Blacklist", "Settings", "_User", "Zebra", "_Conversation", "_ConversationMemberInfo", "_Installation"])
        let fields = try #require(schemas["Blacklist"] as? [String: [String: String]])
        #expect(fields["objectId"] == ["type": "String"] && fields["createdAt"] == ["type": "Date"] && fields["updatedAt"] == ["type": "Date"])

        #expect(try await server.rest("GET", "/1.1/schemas", key: .some(server.config.appKey)).0 == 401)
        try await server.stop()
    }
}
