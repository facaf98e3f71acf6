/// Node's core modules that Switchboard provides, by name (without `node:`).
enum NodeModules {
    static func source(named name: String) -> String? { nil }
}
