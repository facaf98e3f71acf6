import ArgumentParser
import Foundation
import SwitchboardJS
import SwitchboardServer

/// `switchboard hooks check [DIR]`: does every script load?
struct HooksCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load every script of a hooks folder (or one script or project folder); print file:line for each that fails, and exit non-zero if any does. Modules a script names and cannot have are listed with the file:line naming them."
    )

    @Argument(help: "The folder of scripts, or one script or LeanEngine project folder. Default: hooks.dir of the config.")
    var directory: String?

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    func run() async throws {
        let settings = try ServerConfig.load(explicitPath: config)
        let path = directory ?? settings.hooksDirectory
        // One script or project folder, or a hooks folder of them.
        let url = URL(fileURLWithPath: path).standardized
        let (folder, files) = ScriptLibrary.isScript(at: path)
            ? (url.deletingLastPathComponent().path, [url.lastPathComponent])
            : (path, ScriptLibrary.entries(in: path))
        var failed = 0
        for file in files {
            do {
                let check = try await ScriptTrial.check(
                    entry: file, in: folder, budget: settings.hooks.defaultBudget, modulePaths: settings.scriptModulePaths
                )
                print("ok     \(file)  \(check.hooks.isEmpty ? "(defines no hooks)" : check.hooks.joined(separator: ", "))")
                if !check.notRun.isEmpty { print("       not run: \(check.notRun.joined(separator: ", "))") }
                for module in check.missing {
                    print("       module \(module.module) at \(module.file):\(module.line) \(module.problem); a hook call that uses it fails")
                }
            } catch {
                failed += 1
                print("error  \(error)")
            }
        }
        print("\(files.count) scripts, \(failed) failed")
        if failed > 0 { throw ExitCode.failure }
    }
}
