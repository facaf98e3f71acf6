/// The keys the declarations give the file (`ServerConfig.settings`), to find those it has
/// that no setting knows: a typo (`push.vivo.appSecrt`) is an error naming the key and the
/// nearest known one, not a setting silently left at its default.
struct ConfigSchema: Sendable {
    /// Each declared key path in segments; `<name>` segments match any key.
    private let paths: [[String]]

    init(_ keys: [Setting.Key]) {
        paths = keys.map { $0.path.replacingOccurrences(of: "[]", with: "").split(separator: ".").map(String.init) }
    }

    static let declared = ConfigSchema(ServerConfig.settings.flatMap(\.keys))

    /// Whether the file may hold `path` (dotted): declared, or inside a declared value that is
    /// a mapping of its own (`hooks.env.SITE`).
    func declares(_ path: String) -> Bool {
        let segments = path.split(separator: ".").map(String.init)
        return paths.contains { declared in
            zip(declared, segments).allSatisfy(Self.matches) && (declared.count >= segments.count || !hasChildren(Array(declared)))
        }
    }

    /// Throws for the first key of `document` no declaration knows.
    func check(_ document: ConfigValue) throws {
        try check(document, at: [])
    }

    private func check(_ value: ConfigValue, at path: [String]) throws {
        guard path.isEmpty || hasChildren(path) else { return }
        for item in value.items {
            guard item.node.mapping != nil else { throw item.mismatch("a mapping") }
            for (key, child) in try item.entries() {
                let inner = path + [key]
                guard paths.contains(where: { $0.count >= inner.count && zip($0, inner).allSatisfy(Self.matches) }) else {
                    throw ConfigError.unknownKey(child.path, known: knownKeys(below: path))
                }
                // An empty section (`hooks:` with its keys commented out) is one left out.
                if child.node.null == nil { try check(child, at: inner) }
            }
        }
    }

    /// Whether a declared key has keys declared below it (a section, not a value).
    private func hasChildren(_ path: [String]) -> Bool {
        paths.contains { $0.count > path.count && zip($0, path).allSatisfy(Self.matches) }
    }

    /// The named keys declared directly below `path`.
    private func knownKeys(below path: [String]) -> [String] {
        paths.compactMap { declared in
            guard declared.count > path.count, zip(declared, path).allSatisfy(Self.matches) else { return nil }
            let next = declared[path.count]
            return next.hasPrefix("<") ? nil : next
        }
    }

    private static func matches(_ declared: String, _ given: String) -> Bool {
        declared == given || declared.hasPrefix("<")
    }
}
