/// One setting of the config file, declared once (`ServerConfig.settings`): the keys it takes,
/// their types, defaults and what they do, and how they are read into a `ServerConfig`. The
/// file's schema (which keys exist), the defaults and the configuration reference all come
/// from these declarations.
struct Setting {
    /// A key the file may hold, as the reference lists it.
    struct Key: Equatable {
        /// The dotted path (`limits.maxContentBytes`); `<name>` stands for any key of a
        /// mapping (`hooks.points.<point>.budgetMs`), `[]` for the items of a list.
        var path: String
        var type: String
        var defaultValue: String
        var summary: String
    }

    /// The keys, the first the setting's own: a section's fields follow it.
    let keys: [Key]
    /// The properties of `ServerConfig` it sets, so that a test finds a property none sets.
    let properties: [PartialKeyPath<ServerConfig>]
    /// Reads the setting's keys from the file's top mapping into `config`; keys left out keep
    /// what `config` has.
    let read: (ConfigValue, inout ServerConfig) throws -> Void

    /// A section with its own shape: `read` is given the section's value when the file has it.
    init(section path: String, type: String, default defaultValue: String, _ summary: String, fields: [Key] = [],
         sets properties: [PartialKeyPath<ServerConfig>], read: @escaping (ConfigValue, inout ServerConfig) throws -> Void) {
        self.properties = properties
        keys = [Key(path: path, type: type, defaultValue: defaultValue, summary: summary)]
            + fields.map { Key(path: path + "." + $0.path, type: $0.type, defaultValue: $0.defaultValue, summary: $0.summary) }
        let location = path.replacingOccurrences(of: "[]", with: "")
        self.read = { file, config in
            if let value = file.value(at: location) { try read(value, &config) }
        }
    }

    /// Keys of `section` read together (`push.provider` and its provider's keys): `read` is
    /// given the section's value when the file has it.
    init(keysOf section: String, _ fields: [Key], sets properties: [PartialKeyPath<ServerConfig>], read: @escaping (ConfigValue, inout ServerConfig) throws -> Void) {
        self.properties = properties
        keys = fields.map { Key(path: section + "." + $0.path, type: $0.type, defaultValue: $0.defaultValue, summary: $0.summary) }
        self.read = { file, config in
            if let value = file.value(at: section) { try read(value, &config) }
        }
    }

    /// A setting read into one property of `ServerConfig`; the reference shows the property's default.
    /// `problem` says what is wrong with a value the server cannot run with (nil when fine).
    init<Value: ConfigReadable>(_ path: String, _ property: WritableKeyPath<ServerConfig, Value>, _ summary: String,
                                default shownDefault: String? = nil, problem: ((Value) -> String?)? = nil) {
        self.init(path, property, summary, type: Value.typeName, default: shownDefault ?? ServerConfig()[keyPath: property].shown,
                  read: Value.init(config:), problem: problem)
    }

    /// A setting read into one property with its own reading (`hooks.http.allow`, a host list).
    init<Value>(_ path: String, _ property: WritableKeyPath<ServerConfig, Value>, _ summary: String, type: String, default shownDefault: String,
                read: @escaping (ConfigValue) throws -> Value, problem: ((Value) -> String?)? = nil) {
        keys = [Key(path: path, type: type, defaultValue: shownDefault, summary: summary)]
        properties = [property]
        self.read = { file, config in
            guard let given = file.value(at: path) else { return }
            let value = try read(given)
            if let problem = problem?(value) { throw ConfigError("\(path): \(problem)") }
            config[keyPath: property] = value
        }
    }
}

extension Setting.Key {
    /// A field of a section, for `init(section:)`: its path within the section.
    static func field(_ path: String, _ type: String, _ defaultValue: String, _ summary: String) -> Setting.Key {
        Setting.Key(path: path, type: type, defaultValue: defaultValue, summary: summary)
    }

    /// A field of a section read as `Value`, whose default is `defaults`' `property`.
    static func field<Root, Value: ConfigReadable>(_ path: String, _ summary: String, _ defaults: Root, _ property: KeyPath<Root, Value>) -> Setting.Key {
        Setting.Key(path: path, type: Value.typeName, defaultValue: defaults[keyPath: property].shown, summary: summary)
    }

    /// A field of a section read as `Value`, with no default (required, or off when left out).
    static func field<Value: ConfigReadable>(_ path: String, _: Value.Type, _ defaultValue: String, _ summary: String) -> Setting.Key {
        Setting.Key(path: path, type: Value.typeName, defaultValue: defaultValue, summary: summary)
    }
}

/// What `problem:` says of common bounds.
enum SettingBound {
    static func atLeastOne<Integer: BinaryInteger>(_ value: Integer) -> String? { value >= 1 ? nil : "must be at least 1" }
}
