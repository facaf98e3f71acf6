import SwitchboardCore
import SwitchboardJSON
import Testing

/// The `_lctype` a message is stored under (`lctype`, which history's type filter reads),
/// found by a scan of its text instead of a parse into values: the answers a full parse gave.
@Suite(.storeBlind) struct TypedMessageTypeTests {
    @Test(arguments: [
        (#"{"_lctype":-1,"_lctext":"well darn it"}"#, -1),
        (#"{"_lctext":"type last","_lcattrs":{"a":[1,{"b":null}]},"_lctype":-2}"#, -2),
        (#"{"_lctype":3}  "#, 3),
        // Only the top level counts: a nested `_lctype` is an attribute.
        (#"{"_lcattrs":{"_lctype":5},"_lctext":"x"}"#, 0),
        (#"[{"_lctype":1}]"#, 0),
        // The key an escape spells is that key (JSON.parse in the SDK reads it so).
        (#"{"\u005flctype":4}"#, 4),
        (#"{"_lctype\u0000":4}"#, 0),
        // Repeated keys: the last one, as JSON.parse.
        (#"{"_lctype":1,"_lctype":2}"#, 2),
        (#"{"_lctype":1,"_lcattrs":{},"_lctype":"two"}"#, 0),
        // Whole numbers however written; the SDK's `json._lctype === type` agrees.
        (#"{"_lctype":1.0}"#, 1),
        (#"{"_lctype":-1e0}"#, -1),
        (#"{"_lctype":1e1}"#, 10),
        (#"{"_lctype":1.5}"#, 0),
        (#"{"_lctype":4294967296}"#, 0),
        (#"{"_lctype":2147483647}"#, 2_147_483_647),
        // Not numbers (LeanCloud's REST API let a string through; the SDKs see no type).
        (#"{"_lctype":"1"}"#, 0),
        (#"{"_lctype":null}"#, 0),
        (#"{"_lctype":true}"#, 0),
        (#"{"_lctype":[1]}"#, 0),
        // Text that is not JSON has no type, however it starts.
        (#"{"_lctype":1} trailing"#, 0),
        (#"{"_lctype":1,"_lctext":"\ud800 lone surrogate"}"#, 0),
        (#"{"_lctype":1,"n":1e400}"#, 0),
        (#"{"_lctype":1,"_lctext":"raw "# + "\u{1}" + #" control"}"#, 0),
        (#"{"_lctype":-1"#, 0),
        (#"{"_lctype":1,}"#, 0),
        // The text must begin with the brace, as before.
        (#" {"_lctype":1}"#, 0),
        ("plain words", 0),
        ("", 0),
        // Escapes elsewhere are read through.
        (#"{"_lctext":"\"quoted\", \\ and \n\u00e9\ud83d\ude00","_lctype":-3}"#, -3),
    ])
    func typeOfText(_ text: String, _ type: Int32) {
        #expect(MessageContent.text(text).typedMessageType == type)
    }

    @Test func bytesHaveNoType() {
        #expect(MessageContent.binary(Array(#"{"_lctype":1}"#.utf8)).typedMessageType == 0)
    }

    @Test func nestingTooDeepToParseHasNoType() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(MessageContent.text(#"{"_lctype":1,"a":"# + deep + "}").typedMessageType == 0)
        let allowed = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(MessageContent.text(#"{"_lctype":1,"a":"# + allowed + "}").typedMessageType == 1)
    }

    /// The scan answers what a parse answers, for every member of every document, and throws
    /// where the parse throws.
    @Test(arguments: JSONTextTests.documents + [
        #"{"k":"\u005f","\u005fk":[{"k":1}],"k":{"k":2}}"#, #"{}"#, #"{"a":[]}"#, "[]", "null", "{", "[1] 2", #"{"a":1,}"#, #"{"a" 1}"#,
    ])
    func memberIsWhatAParseFinds(_ text: String) {
        let parsed = try? JSONValue(parsing: text)
        let keys = Set(parsed?.objectValue?.keys.map(\.self) ?? []).union(["k", "_k", "a", "absent"])
        for key in keys {
            let scanned = Result { () throws(JSONSyntaxError) in try JSONValue.member(key, ofObjectIn: text) }
            switch scanned {
            case .success(let value): #expect(parsed != nil && value == parsed?[key], "\(key) in \(text)")
            case .failure: #expect(parsed == nil, "\(key) in \(text)")
            }
        }
    }
}
