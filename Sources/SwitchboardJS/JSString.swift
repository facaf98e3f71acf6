import CJavaScriptCore

/// Conversions between Swift strings and JavaScriptCore's `JSStringRef`.
enum JSString {
    /// Runs `body` with a temporary JSStringRef holding `string`.
    static func with<Result>(_ string: String, _ body: (JSStringRef) throws -> Result) rethrows -> Result {
        let ref = JSStringCreateWithUTF8CString(string)!
        defer { JSStringRelease(ref) }
        return try body(ref)
    }

    static func string(_ ref: JSStringRef) -> String {
        let capacity = JSStringGetMaximumUTF8CStringSize(ref)
        var buffer = [CChar](repeating: 0, count: capacity)
        let written = JSStringGetUTF8CString(ref, &buffer, capacity)
        guard written > 0 else { return "" }
        return String(decoding: buffer[..<(written - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The string a JavaScript value converts to (`String(value)`), or nil if that throws.
    static func string(of value: JSValueRef, in context: JSContextRef) -> String? {
        var exception: JSValueRef?
        guard let ref = JSValueToStringCopy(context, value, &exception), exception == nil else { return nil }
        defer { JSStringRelease(ref) }
        return string(ref)
    }

    /// A native function's arguments when each is a string, or nil.
    static func strings(_ count: Int, _ arguments: UnsafePointer<JSValueRef?>?, in context: JSContextRef) -> [String]? {
        guard let arguments else { return count == 0 ? [] : nil }
        var strings: [String] = []
        for index in 0..<count {
            guard let value = arguments[index], JSValueIsString(context, value), let string = string(of: value, in: context) else { return nil }
            strings.append(string)
        }
        return strings
    }
}
