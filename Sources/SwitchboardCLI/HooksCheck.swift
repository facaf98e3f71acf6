import ArgumentParser
import Foundation
import SwitchboardJS
import SwitchboardServer

/// `switchboard hooks check [DIR]`: does every script load?
struct HooksCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load every script of a hooks folder; print file:line for each that fails, and exit non-zero if any does."
    )

    @Argument(help: "The folder of scripts. Default: hooks.dir of the config.")
    var directory: String?

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    func run() async throws {
        let settings = try ServerConfig.load(explicitPath: config)
        let folder = directory ?? settings.hooksDirectory
        let files = ScriptLibrary.entries(in: folder)
        var failed = 0
        for file in files {
            do {
                let hooks = try await ScriptTrial.check(entry: file, in: folder, budget: settings.hooks.defaultBudget)
                print("ok     \(file)  \(hooks.isEmpty ? "(defines no hooks)" : hooks.joined(separator: ", "))")
            } catch {
                failed += 1
                print("error  \(error)")
            }
        }
        print("\(files.count) scripts, \(failed) failed")
        if failed > 0 { throw ExitCode.failure }
    }
}
