/// Replacements in a source that keep every line where it was: each replaced range's line
/// breaks follow its replacement, so what comes after stays on its lines and the engine's
/// line numbers stay the file's.
struct LineKeepingRewrite {
    private let bytes: [UInt8]
    private var edits: [(range: Range<Int>, text: String)] = []
    /// What goes before everything, on line 1. No line breaks.
    var prologue = ""

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Replaces `range` with `text` (no line breaks). Ranges come in source order.
    mutating func replace(_ range: Range<Int>, with text: String) {
        assert(edits.last.map { $0.range.upperBound <= range.lowerBound } ?? true, "edits out of order")
        edits.append((range, text))
    }

    var result: String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + prologue.utf8.count + edits.reduce(0) { $0 + $1.text.utf8.count })
        output += prologue.utf8
        var copied = 0
        for edit in edits {
            output += bytes[copied..<edit.range.lowerBound]
            output += edit.text.utf8
            var index = edit.range.lowerBound
            while index < edit.range.upperBound {
                let terminator = JavaScriptLexer.lineTerminatorLength(in: bytes, at: index)
                if terminator > 0 { output.append(UInt8(ascii: "\n")) }
                index += max(terminator, 1)
            }
            copied = edit.range.upperBound
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}
