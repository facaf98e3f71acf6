import Foundation
import SwitchboardJSON
import Testing

/// `$regex` in conversation queries, matched without backtracking; the queries on the core alone.
@Suite struct RegexQueryTests {
    @Test(arguments: [
        // pattern, options, text, matches
        ("REALTIME-SDK", "i", "js-realtime-sdk-testconv", true),
        ("REALTIME-SDK", "", "js-realtime-sdk-testconv", false),
        (#"\Qrealtime-sdk\E"#, "", "js-realtime-sdk-testconv", true),
        (#"^\Qjs-realtime\E"#, "", "js-realtime-sdk-testconv", true),
        (#"^\QJS-REALTIME\E"#, "", "js-realtime-sdk-testconv", false),
        (#"\Qtestconv\E$"#, "", "js-realtime-sdk-testconv", true),
        (#"\Qa.b*\E"#, "", "xa.b*y", true),
        (#"\Qa.b*\E"#, "", "xaabby", false),
        (#"\Qend\E\\E\Q here\E"#, "", #"the end\E here"#, true),
        ("^(ab|cd)+e?$", "", "abcdab", true),
        ("^(ab|cd)+e?$", "", "abce", false),
        (#"^\d{3}-\d{2,}$"#, "", "123-4567", true),
        (#"^\d{3}-\d{2,}$"#, "", "12-4567", false),
        ("[^a-c]x", "", "cx dx", true),
        ("[^a-c]x", "", "cx", false),
        ("^b", "m", "a\nb", true),
        ("^b", "", "a\nb", false),
        ("a.b", "", "a\nb", false),
        ("a.b", "s", "a\nb", true),
        ("ÉTÉ", "i", "un été", true),
        ("colou?r", "", "color", true),
        ("x*", "", "", true),
        // x: blanks and # comments are not part of the pattern, except escaped or in a set.
        ("a b  # then c\n c +$", "x", "abccc", true),
        ("a b", "", "ab", false),
        (#"a\ b [ ]c"#, "x", "a b c", true),
        (#"\Qa b\E"#, "x", "a b", true),
        ("( a | b ) {2}", "x", "ba", true),
    ])
    func patterns(_ pattern: String, _ options: String, _ text: String, _ expected: Bool) throws {
        #expect(try LinearRegex(pattern, options: options).matches(text) == expected)
    }

    /// `(a+)+$` against a's then a b takes a backtracking engine 2^n steps; here each
    /// character is looked at once.
    @Test func catastrophicPatternsStayLinear() throws {
        let regex = try LinearRegex("^(a+)+$")
        #expect(!regex.matches(String(repeating: "a", count: 5000) + "b"))
        #expect(regex.matches(String(repeating: "a", count: 5000)))
    }

    @Test(arguments: [#"(a)\1"#, "(?=a)", "a{5000}", "[z-a]", "(ab", "ab)", "*a", String(repeating: "a", count: 2000)])
    func refused(_ pattern: String) {
        #expect(throws: LinearRegex.Unsupported.self) { try LinearRegex(pattern) }
    }

    @Test func queriesFindConversationsByText() async throws {
        let server = try await CoreHarness.start()
        let alice = try await server.login("alice")
        let lunch = try await alice.request(.startConversation(members: ["bob"], name: "Team lunch")).convMessage.cid
        _ = try await alice.request(.startConversation(members: ["bob"], name: "Launch plan"))
        let names = { (found: [[String: Any]]) in found.compactMap { $0["name"] as? String }.sorted() }
        #expect(names(try await alice.queryConversations(where: #"{"name":{"$regex":"\\Qlunch\\E"}}"#)) == ["Team lunch"])
        #expect(names(try await alice.queryConversations(where: #"{"name":{"$regex":"^L","$options":"i"}}"#)) == ["Launch plan"])
        #expect(names(try await alice.queryConversations(where: #"{"name":{"$regex":"n[ct]h"}}"#)) == ["Launch plan", "Team lunch"])
        // An array field matches when an element does.
        let byMember = try await alice.queryConversations(where: #"{"m":{"$regex":"^bo"},"objectId":"\#(lunch)"}"#)
        #expect(byMember.count == 1)
        let refused = try await alice.request(.query(where: #"{"name":{"$regex":"(a)\\1"}}"#))
        #expect(refused.errorMessage.code == 4301)
        await server.stop()
    }
}
