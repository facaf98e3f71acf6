import ArgumentParser
import Foundation
import SwitchboardServer

/// `switchboard config`: the config file's reference, and a check of a file.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "The config file's settings.", subcommands: [ConfigReferenceCommand.self, ConfigCheck.self]
    )
}

/// `switchboard config reference`: the table of every setting, as `docs/configuration.md` has it.
struct ConfigReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Print the table of settings (key, type, default, what it does) made from their declarations."
    )

    @Option(help: "Replace the table between the markers of this Markdown file instead of printing it (docs/configuration.md).")
    var update: String?

    func run() throws {
        guard let update else { return print(ConfigReference.table, terminator: "") }
        let document = try String(contentsOfFile: update, encoding: .utf8)
        guard let updated = ConfigReference.updating(document) else {
            throw ValidationError("\(update) has no \(ConfigReference.startMarker) ... \(ConfigReference.endMarker) markers")
        }
        try updated.write(toFile: update, atomically: true, encoding: .utf8)
    }
}

/// `switchboard config check`: reads a config as `serve` would, and says what is wrong with it.
struct ConfigCheck: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Read a config file as serve does, and report the first problem.")

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    func run() throws {
        let path = config ?? ServerConfig.defaultPath
        guard config != nil || FileManager.default.fileExists(atPath: path) else { return print("no \(path): the defaults apply") }
        _ = try ServerConfig.load(path: path)
        print("\(path): ok")
    }
}
