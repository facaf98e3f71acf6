import ArgumentParser
import Foundation
import Logging
import SwitchboardHooks
import SwitchboardJS
import SwitchboardServer

/// `switchboard hooks list`: the chain of every hook point, in the order it runs.
struct HooksList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the handler chain of every hook point: order, kind, priority, budget, failure policy, version."
    )

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    func run() async throws {
        let settings = try ServerConfig.load(explicitPath: config)
        var logger = Logger(label: "switchboard")
        logger.logLevel = .critical
        let hooks = SwitchboardApplication.makeHooks(config: settings, plugins: SwitchboardCommand.plugins, logger: logger)
        var scriptSettings = settings.scriptSettings
        scriptSettings.workers = 1
        let scripts = ScriptLibrary(settings: scriptSettings, pipeline: hooks, logger: logger)
        let errors = await scripts.loadAll()
        print(Self.render(hooks))
        let notRun = scripts.status.filter { !$0.value.notRun.isEmpty }.sorted { $0.key < $1.key }
        if !notRun.isEmpty {
            print("\ndefined, not run (Switchboard runs IM hooks; call your LeanEngine app as a remote hook for the rest):")
            for (name, status) in notRun { print("  \(name): \(status.notRun.joined(separator: ", "))") }
        }
        if !errors.isEmpty {
            print("\nscripts that failed to load:")
            for error in errors { print("  \(error)") }
        }
    }

    /// One block per hook point; a table of its handlers, or "(no handlers)".
    static func render(_ hooks: HookPipeline) -> String {
        var lines: [String] = []
        for point in HookPoint.allCases {
            lines.append("\(point.rawValue)\(point.isBlocking ? "" : " (observes)")")
            let chain = hooks.resolvedChain(for: point)
            if chain.isEmpty {
                lines.append("  (no handlers)")
                continue
            }
            let rows = [["#", "handler", "kind", "priority", "budget", "on failure", "version"]] + chain.enumerated().map { index, handler in
                [
                    "\(index + 1)", handler.name, handler.kind, "\(handler.priority)",
                    "\(handler.budget.components.seconds * 1000 + handler.budget.components.attoseconds / 1_000_000_000_000_000) ms",
                    handler.failurePolicy.rawValue, handler.version,
                ]
            }
            let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                let padded = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                lines.append("  " + padded.replacing(/\s+$/, with: ""))
            }
        }
        return lines.joined(separator: "\n")
    }
}
