extension JavaScriptLexer {
    /// What a string literal token means, escapes decoded: `'\x61\u{62}'` is `ab`. Tokens
    /// keep only their bytes, since most strings of a source are never asked for. A lone
    /// surrogate becomes U+FFFD, which a Swift string cannot hold otherwise.
    func stringValue(_ token: JavaScriptToken) -> String {
        let quote = bytes[token.range.lowerBound]
        var decoded: [UInt8] = []
        decoded.reserveCapacity(token.range.count)
        var index = token.range.lowerBound + 1
        var pendingHighSurrogate: UInt32?
        func append(_ scalar: UInt32) {
            if let high = pendingHighSurrogate {
                pendingHighSurrogate = nil
                if (0xDC00...0xDFFF).contains(scalar) {
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00))
                    return
                }
                appendScalar(0xFFFD)
            }
            if (0xD800...0xDBFF).contains(scalar) { pendingHighSurrogate = scalar } else { appendScalar(scalar) }
        }
        func appendScalar(_ value: UInt32) {
            UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { decoded.append($0) }
        }
        func flushSurrogate() {
            if pendingHighSurrogate != nil {
                pendingHighSurrogate = nil
                appendScalar(0xFFFD)
            }
        }
        while index < token.range.upperBound, bytes[index] != quote {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < token.range.upperBound else {
                flushSurrogate()
                decoded.append(bytes[index])
                index += 1
                continue
            }
            index += 1
            let continuation = Self.lineTerminatorLength(in: bytes, at: index)
            if continuation > 0 {
                index += continuation
                continue
            }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): append(0x0A)
            case UInt8(ascii: "t"): append(0x09)
            case UInt8(ascii: "r"): append(0x0D)
            case UInt8(ascii: "b"): append(0x08)
            case UInt8(ascii: "f"): append(0x0C)
            case UInt8(ascii: "v"): append(0x0B)
            case UInt8(ascii: "x"):
                append(fixedHexValue(from: &index, digits: 2, end: token.range.upperBound))
            case UInt8(ascii: "u") where index < token.range.upperBound && bytes[index] == UInt8(ascii: "{"):
                var close = index + 1
                while close < token.range.upperBound && bytes[close] != UInt8(ascii: "}") { close += 1 }
                append(hexValue(index + 1..<close) ?? 0xFFFD)
                index = close + 1
            case UInt8(ascii: "u"):
                append(fixedHexValue(from: &index, digits: 4, end: token.range.upperBound))
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // Legacy octal escapes of sloppy code: up to three digits, at most \377.
                var value = UInt32(escaped - UInt8(ascii: "0"))
                while index < token.range.upperBound, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]),
                      value * 8 + UInt32(bytes[index] - UInt8(ascii: "0")) <= 0o377 {
                    value = value * 8 + UInt32(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                append(value)
            default:
                // Any other escaped character stands for itself, even a multi-byte one:
                // its remaining bytes follow as plain bytes.
                flushSurrogate()
                decoded.append(escaped)
            }
        }
        flushSurrogate()
        return String(decoding: decoded, as: UTF8.self)
    }

    /// `digits` hexadecimal digits from `index`, leaving `index` after them; U+FFFD, and
    /// `index` where it was, when there are not that many.
    private func fixedHexValue(from index: inout Int, digits: Int, end: Int) -> UInt32 {
        guard index + digits <= end, let value = hexValue(index..<(index + digits)) else { return 0xFFFD }
        index += digits
        return value
    }

    private func hexValue(_ digits: Range<Int>) -> UInt32? {
        guard !digits.isEmpty, digits.allSatisfy({ bytes[$0].isHexDigit }) else { return nil }
        return UInt32(String(decoding: bytes[digits], as: UTF8.self), radix: 16)
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20)
    }
}
