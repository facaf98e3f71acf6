/// JSON text to and from `JSONValue`, by hand: every hook call and typed message goes through
/// here, and Foundation's Codable coders cost ten times as much for the same result.
/// Numbers read as `.int` whenever they are exactly an Int64 (`1.0` too), as the Codable
/// decoding did; output is compact with sorted keys and unescaped slashes.
enum JSONText {
    /// Deeper nesting is refused rather than risking the stack on hostile input.
    static let maxDepth = 512

    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(JSONSyntaxError) in
                var reader = Reader(bytes: bytes)
                let value = try reader.value(depth: 0)
                reader.skipWhitespace()
                guard reader.position == bytes.count else { throw reader.error("unexpected text after the value") }
                return value
            }
        }.get()
    }

    /// What `try parse(text)[name]` answers, without building the rest: the text is read
    /// through and checked all the same (what is not JSON throws as `parse` does), but only
    /// the top-level member `name` becomes a value. A typed message's `_lctype` is read this
    /// way from every message stored.
    static func member(_ name: String, ofObjectIn text: String) throws(JSONSyntaxError) -> JSONValue? {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(JSONSyntaxError) -> JSONValue? in
                var reader = Reader(bytes: bytes)
                reader.skipWhitespace()
                var found: JSONValue?
                if reader.position < bytes.count, bytes[reader.position] == UInt8(ascii: "{") {
                    try reader.forEachMember(depth: 0) { reader, key throws(JSONSyntaxError) in
                        if key == name {
                            found = try reader.value(depth: 1)
                        } else {
                            try reader.skipValue(depth: 1)
                        }
                    }
                } else {
                    try reader.skipValue(depth: 0)
                }
                reader.skipWhitespace()
                guard reader.position == bytes.count else { throw reader.error("unexpected text after the value") }
                return found
            }
        }.get()
    }

    static func write(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number): output.append(contentsOf: text(of: number).utf8)
        case .string(let string): write(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(members[key]!, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func text(of number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == 0 { return number.sign == .minus ? "-0" : "0" }
        if let whole = Int64(exactly: number) { return String(whole) }
        return "\(number)"
    }

    static func write(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // What needs no escape goes in whole runs: message content is JSON itself, its
            // quotes escaped one by one between long stretches of text.
            var run = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                appendEscaped(byte, to: &output)
                run = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        case 0x08: output.append(contentsOf: #"\b"#.utf8)
        case 0x0C: output.append(contentsOf: #"\f"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// False while a value is only checked (`skipValue`): strings, arrays and objects
        /// are read through as usual but not built, and come out empty.
        private var building = true

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        func error(_ reason: String) -> JSONSyntaxError {
            JSONSyntaxError(reason: reason, offset: position)
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth < JSONText.maxDepth else { throw error("nested deeper than \(JSONText.maxDepth) levels") }
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of text") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        /// Checks the value that starts here and moves past it, building nothing.
        mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
            let wasBuilding = building
            building = false
            defer { building = wasBuilding }
            _ = try value(depth: depth)
        }

        private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            var members: [String: JSONValue] = [:]
            try forEachMember(depth: depth) { reader, key throws(JSONSyntaxError) in
                let value = try reader.value(depth: depth + 1)
                if reader.building { members[key] = value }
            }
            return .object(members)
        }

        /// Reads the object that starts here: `member` is called with each key, and must read
        /// the member's value, which starts at `position`.
        mutating func forEachMember(
            depth: Int, _ member: (inout Reader, String) throws(JSONSyntaxError) -> Void
        ) throws(JSONSyntaxError) {
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return
            }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipWhitespace()
                try expect(":")
                try member(&self, key)
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of text") }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return }
                try expect(",")
            }
        }

        private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                let element = try value(depth: depth + 1)
                if building { elements.append(element) }
                skipWhitespace()
                guard position < bytes.count else { throw error("unexpected end of text") }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                try expect(",")
            }
        }

        private mutating func string() throws(JSONSyntaxError) -> String {
            position += 1
            let start = position
            // Most strings have no escapes: take their bytes as they are.
            while position < bytes.count, bytes[position] != UInt8(ascii: "\""), bytes[position] != UInt8(ascii: "\\"), bytes[position] >= 0x20 {
                position += 1
            }
            guard position < bytes.count else { throw error("unterminated string") }
            if bytes[position] == UInt8(ascii: "\"") {
                position += 1
                return building ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position - 1]), as: UTF8.self) : ""
            }
            var decoded = Array(bytes[start..<position])
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"): try escape(into: &decoded)
                case ..<0x20: position -= 1; throw error("control character in a string")
                default: decoded.append(byte)
                }
            }
            throw error("unterminated string")
        }

        private mutating func escape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw error("lone surrogate in a \\u escape")
                    }
                    position += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate in a \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw error("lone surrogate in a \\u escape") }
                decoded.append(contentsOf: String(Character(unicode)).utf8)
            default:
                position -= 1
                throw error("unknown escape")
            }
        }

        private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8 = switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
                default: throw error("bad hex digit in a \\u escape")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        private mutating func number() throws(JSONSyntaxError) -> JSONValue {
            let start = position
            var integral = true
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("unexpected character") }
            if bytes[position] == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                integral = false
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else { throw error("digits expected after '.'") }
                skipDigits()
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                integral = false
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard position < bytes.count, isDigit(bytes[position]) else { throw error("digits expected in the exponent") }
                skipDigits()
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            if integral, let whole = Int64(text) { return .int(whole) }
            guard let number = Double(text), number.isFinite else { throw error("number out of range") }
            if let whole = Int64(exactly: number) { return .int(whole) }
            return .double(number)
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private mutating func skipDigits() {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }

        private mutating func expect(_ character: Unicode.Scalar) throws(JSONSyntaxError) {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { throw error("expected '\(character)'") }
            position += 1
        }

        private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count,
                  (0..<count).allSatisfy({ bytes[position + $0] == word.utf8Start[$0] })
            else { throw error("unexpected character") }
            position += count
        }
    }
}

/// Text that is not JSON, with where reading stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
