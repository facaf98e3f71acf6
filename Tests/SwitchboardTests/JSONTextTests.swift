import Foundation
import SwitchboardJSON
import Testing

/// The hand-written JSON reader and writer, checked against Foundation's coders, which they
/// replaced and must agree with.
@Suite(.storeBlind) struct JSONTextTests {
    static let documents = [
        #"{"_lctype":-1,"_lctext":"well darn it, see you at noon","_lcattrs":{"mood":"cheerful","n":[1,2.5,-0.125,1e21,true,false,null]}}"#,
        #"["a/b","tab\there","quote \" and \\ backslash","line\nbreak","\u0001\u001f","é漢字🙂","\ud83d\ude00"]"#,
        #"{"b":1,"a":{"z":[],"y":{}},"big":12345678901234567890,"small":5e-324,"whole":3.0,"exp":1E2,"neg":-42}"#,
        #"  "just a string"  "#,
        "0",
        "-0",
        "[1.0, 0.1, 123456789012.5, 1e-7, 9007199254740993]",
    ]

    @Test(arguments: documents)
    func readsAsFoundationDoes(_ text: String) throws {
        let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(try JSONValue(parsing: text) == foundation)
    }

    @Test(arguments: documents)
    func writesAsFoundationDoes(_ text: String) throws {
        let value = try JSONValue(parsing: text)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(value.jsonString == String(decoding: try encoder.encode(value), as: UTF8.self))
        #expect(try JSONValue(parsing: value.jsonString) == value)
    }

    @Test func numbersThatAreWholeInt64sReadAsInts() throws {
        #expect(try JSONValue(parsing: "1.0") == .int(1))
        #expect(try JSONValue(parsing: "1e2") == .int(100))
        #expect(try JSONValue(parsing: "1.5") == .double(1.5))
        #expect(try JSONValue(parsing: "12345678901234567890") == .double(12345678901234567890))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "{a:1}", "01", "+1", "1.", ".5", "1e", "NaN", "1e400", "tru", "nul",
        "\"unterminated", "\"bad \\x escape\"", "\"lone \\ud800 surrogate\"", "\"\\ud800\\u0041\"", "\"raw \u{1} control\"",
        "[1] 2", "'single'",
    ])
    func rejectsWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) }
    }

    @Test func refusesHostileNestingInsteadOfOverflowingTheStack() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
        let allowed = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect((try? JSONValue(parsing: allowed)) != nil)
    }
}
