import ArgumentParser
import Foundation
import Logging
import SwitchboardServer

/// `switchboard serve`: runs the server until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server.")

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    @Option(help: "Address to listen on.")
    var host: String?

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int?

    @Option(help: "Folder of the SQLite database.")
    var dataDir: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    func run() async throws {
        var settings = try ServerConfig.load(explicitPath: config)
        settings.host = host ?? settings.host
        settings.port = port ?? settings.port
        settings.dataDirectory = dataDir ?? settings.dataDirectory
        settings.logLevel = logLevel ?? settings.logLevel
        guard let level = Logger.Level(rawValue: settings.logLevel) else {
            throw ValidationError("unknown log level \(settings.logLevel)")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "switchboard")
        let application = try await SwitchboardApplication(config: settings, logger: logger, plugins: SwitchboardCommand.plugins)
        try await application.run()
    }
}
