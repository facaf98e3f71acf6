import SwitchboardHooks

/// The built-in handlers' sections: the keyword filter and the typed-message check.
extension ServerConfig {
    static var keywords: Setting {
        let defaults = KeywordFilter.Settings(file: "config/keywords.txt")
        return Setting(section: "keywords", type: "section", default: "on", "the built-in keyword filter at `_messageReceived` and `_messageUpdate`", fields: [
            .field("enabled", Bool.self, "`true`", "`false` turns it off"),
            .field("file", "one word a line; read again when saved", defaults, \.file),
            .field("ignoreCase", "whether case is ignored", defaults, \.ignoresCase),
            .field("conversations", [ConversationKind].self, "all", "which kinds of conversation are filtered: `one-to-one`, `group`, `chat-room`"),
        ], sets: [\.keywordFilter]) { keywords, config in
            guard try keywords.read("enabled") ?? true else {
                config.keywordFilter = nil
                return
            }
            var filter = config.keywordFilter ?? defaults
            filter.file = try keywords.read("file") ?? filter.file
            filter.ignoresCase = try keywords.read("ignoreCase") ?? filter.ignoresCase
            filter.conversationKinds = try keywords.read("conversations", as: [ConversationKind].self).map(Set.init) ?? filter.conversationKinds
            config.keywordFilter = filter
        }
    }

    static var messageTypes: Setting {
        Setting(section: "messageTypes", type: "section", default: "off",
                "the built-in typed-message check: LeanCloud's types need their fields (`_lcfile.url` on an image...), application types must be declared; others are refused with 4402 (appCode 9001 malformed, 9002 undeclared, 9003 missing field)",
                fields: [
                    .field("enabled", Bool.self, "`true` when the section is given", "`false` turns it off"),
                    .field("declared", "mapping", "none", "application type numbers and the fields each requires, as dotted paths (`2: [_lcattrs.orderId]`)"),
                ], sets: [\.messageTypes]) { messageTypes, config in
            guard try messageTypes.read("enabled") ?? true else {
                config.messageTypes = nil
                return
            }
            var declared: [Int: [String]] = [:]
            for (type, fields) in try messageTypes["declared"]?.entries() ?? [] {
                guard let number = Int(type), number > 0 else {
                    throw ConfigError("messageTypes.declared: \(type) is not a positive message type number")
                }
                declared[number] = try [String](config: fields)
            }
            config.messageTypes = MessageTypeValidator.Settings(declaredTypes: declared)
        }
    }
}
