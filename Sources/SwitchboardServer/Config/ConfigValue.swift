import Yams

/// A value in the config file, with the key path it is at (`push.vivo.appSecret`,
/// `hooks.remote[1].url`) for the errors that name it. Reads are typed: a value of the wrong
/// kind is a `ConfigError` naming the key, never a silent default.
struct ConfigValue {
    let node: Node
    let path: String

    /// The file's top mapping; nil for an empty file.
    static func document(_ text: String) throws -> ConfigValue? {
        guard let node = try Yams.compose(yaml: text) else { return nil }
        let document = ConfigValue(node: node, path: "")
        guard node.mapping != nil else { throw ConfigError("config: the file must be a mapping of sections (server:, app:, ...)") }
        return document
    }

    /// The value at `key` of this mapping; nil when absent or null (`key: ~`), as if left out.
    subscript(key: String) -> ConfigValue? {
        guard let child = node.mapping?[key], child.null == nil else { return nil }
        return ConfigValue(node: child, path: path(of: key))
    }

    /// The key path of `key` in this mapping.
    private func path(of key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The value at `key` of this mapping read as `Value`; nil when left out. `key` is one the
    /// declarations give this section, so that the reference lists every key read.
    func read<Value: ConfigReadable>(_ key: String, as _: Value.Type = Value.self) throws -> Value? {
        assert(ConfigSchema.declared.declares(path(of: key).replacing(/\[[0-9]+\]/, with: "")), "\(path).\(key) is read but not declared")
        return try self[key].map(Value.init(config:))
    }

    /// The value at a dotted key path (`limits.maxContentBytes`) below this one.
    func value(at keyPath: String) -> ConfigValue? {
        keyPath.split(separator: ".").reduce(Optional(self)) { value, key in value?[String(key)] }
    }

    /// The items of a list, or this value alone: sections written as one item or a list
    /// (`push.apns` for one team or several).
    var items: [ConfigValue] {
        guard let sequence = node.sequence else { return [self] }
        return sequence.enumerated().map { ConfigValue(node: $1, path: "\(path)[\($0)]") }
    }

    /// A mapping's keys and values, in the file's order.
    func entries() throws -> [(key: String, value: ConfigValue)] {
        guard let mapping = node.mapping else { throw mismatch("a mapping") }
        return try mapping.map { key, value in
            guard let name = key.string else { throw ConfigError("\(path): a key must be a name") }
            return (name, ConfigValue(node: value, path: path(of: name)))
        }
    }

    func string() throws -> String {
        guard let scalar = node.scalar else { throw mismatch("a string") }
        return scalar.string
    }

    func integer<Integer: FixedWidthInteger>(_: Integer.Type = Integer.self) throws -> Integer {
        guard let value = node.scalar.flatMap(Int64.construct).flatMap(Integer.init(exactly:)) else { throw mismatch("an integer") }
        return value
    }

    func bool() throws -> Bool {
        guard let value = node.bool else { throw mismatch("true or false") }
        return value
    }

    func list() throws -> [ConfigValue] {
        guard node.sequence != nil else { throw mismatch("a list") }
        return items
    }

    /// One of `choices`, by its name in the file.
    func choice<Choice: RawRepresentable<String>>(of choices: [Choice]) throws -> Choice {
        let name = try string()
        guard let choice = Choice(rawValue: name), choices.contains(where: { $0.rawValue == name }) else {
            throw ConfigError("\(path): \(name) is not one of \(choices.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    /// An error for a value that is not `expected`.
    func mismatch(_ expected: String) -> ConfigError {
        ConfigError("\(path): expected \(expected)")
    }
}
