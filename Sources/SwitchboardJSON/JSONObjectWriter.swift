/// A JSON object's text written member by member, in the order given, for hot paths whose
/// members are known (a hook call's params, every message): no `JSONValue` dictionary to
/// build, hash and sort first. Writing the keys in sorted order gives the same text as
/// `JSONValue.jsonString`.
public struct JSONObjectWriter {
    private var output: [UInt8] = []

    public init(capacity: Int = 256) {
        output.reserveCapacity(capacity)
        output.append(UInt8(ascii: "{"))
    }

    public mutating func add(_ key: String, _ value: String) {
        member(key)
        JSONText.write(value, to: &output)
    }

    public mutating func add(_ key: String, _ value: Bool) {
        member(key)
        output.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func add(_ key: String, _ value: Int64) {
        member(key)
        output.append(contentsOf: String(value).utf8)
    }

    public mutating func add(_ key: String, _ values: [String]) {
        member(key)
        output.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONText.write(value, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// The object's text; the writer is done.
    public consuming func text() -> String {
        output.append(UInt8(ascii: "}"))
        return String(decoding: output, as: UTF8.self)
    }

    private mutating func member(_ key: String) {
        if output.count > 1 { output.append(UInt8(ascii: ",")) }
        JSONText.write(key, to: &output)
        output.append(UInt8(ascii: ":"))
    }
}
