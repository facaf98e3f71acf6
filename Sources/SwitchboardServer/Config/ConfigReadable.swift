import Foundation
import SwitchboardHooks

/// A type a setting's value is read as from the file, named and shown as the configuration
/// reference gives it.
protocol ConfigReadable: Equatable {
    /// What the reference calls it: `integer`, `list of strings`.
    static var typeName: String { get }
    init(config value: ConfigValue) throws
    /// How the reference shows a default of it.
    var shown: String { get }
}

extension String: ConfigReadable {
    static var typeName: String { "string" }
    init(config value: ConfigValue) throws { self = try value.string() }
    var shown: String { "`\(self)`" }
}

extension Bool: ConfigReadable {
    static var typeName: String { "boolean" }
    init(config value: ConfigValue) throws { self = try value.bool() }
    var shown: String { "`\(self)`" }
}

extension ConfigReadable where Self: FixedWidthInteger {
    static var typeName: String { "integer" }
    init(config value: ConfigValue) throws { self = try value.integer() }
    var shown: String { "`\(self)`" }
}

extension Int: ConfigReadable {}
extension Int32: ConfigReadable {}
extension Int64: ConfigReadable {}

/// Written in whole milliseconds (`budgetMs`, `cooldownMs`).
extension Duration: ConfigReadable {
    static var typeName: String { "milliseconds" }
    init(config value: ConfigValue) throws { self = .milliseconds(try value.integer(Int64.self)) }
    var shown: String { "`\(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)`" }
}

extension FailurePolicy: ConfigReadable {
    static var typeName: String { "`open` or `closed`" }
    init(config value: ConfigValue) throws { self = try value.choice(of: [FailurePolicy.open, .closed]) }
    var shown: String { "`\(rawValue)`" }
}

extension ConversationKind: ConfigReadable {
    static var typeName: String { "conversation kind" }
    init(config value: ConfigValue) throws { self = try value.choice(of: ConversationKind.allCases) }
    var shown: String { "`\(rawValue)`" }
}

/// Left out of the file (or `~`) is nil.
extension Optional: ConfigReadable where Wrapped: ConfigReadable {
    static var typeName: String { Wrapped.typeName }
    init(config value: ConfigValue) throws { self = try Wrapped(config: value) }
    var shown: String { map(\.shown) ?? "none" }
}

extension Array: ConfigReadable where Element: ConfigReadable {
    static var typeName: String { "list of \(Element.typeName)s" }
    init(config value: ConfigValue) throws { self = try value.list().map(Element.init(config:)) }
    var shown: String { isEmpty ? "none" : map(\.shown).joined(separator: ", ") }
}

/// A mapping of names to strings (`hooks.env`).
extension Dictionary: ConfigReadable where Key == String, Value == String {
    static var typeName: String { "mapping of strings" }
    init(config value: ConfigValue) throws {
        self = try Dictionary(value.entries().map { ($0.key, try $0.value.string()) }, uniquingKeysWith: { _, last in last })
    }
    var shown: String { isEmpty ? "none" : sorted { $0.key < $1.key }.map { "`\($0.key): \($0.value)`" }.joined(separator: ", ") }
}
