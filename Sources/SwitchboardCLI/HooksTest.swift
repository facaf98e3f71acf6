import ArgumentParser
import Foundation
import SwitchboardHooks
import SwitchboardJS
import SwitchboardJSON
import SwitchboardServer

/// `switchboard hooks test SCRIPT --hook NAME --params FILE`: run one hook once.
struct HooksTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run one hook of a script with the given parameters, in the server's sandbox and budget; print the result, the console output and the time it took."
    )

    @Argument(help: "The script file, or a LeanEngine project folder.")
    var script: String

    @Option(help: "The hook point, e.g. _messageReceived.")
    var hook: String

    @Option(help: "A JSON file with request.params (see examples/payloads/). Default: {}.")
    var params: String?

    @Option(help: "The CPU budget in milliseconds. Default: the hooks budget of the config.")
    var budgetMs: Int?

    @Option(name: .shortAndLong, help: "Config file (YAML). Default: config/switchboard.yaml when it exists.")
    var config: String?

    func run() async throws {
        guard let point = HookPoint(rawValue: hook) else {
            throw ValidationError("unknown hook \(hook); one of \(HookPoint.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let settings = try ServerConfig.load(explicitPath: config)
        let paramsJSON = try params.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? "{}"
        guard (try? JSONValue(parsing: paramsJSON))?.objectValue != nil else {
            throw ValidationError("\(params ?? "params") must hold a JSON object")
        }
        let budget: Duration = budgetMs.map { .milliseconds($0) } ?? settings.hooks.defaultBudget
        let report = try await ScriptTrial.run(
            path: script, hook: point.rawValue, paramsJSON: paramsJSON, budget: budget, env: settings.scriptEnvironment,
            modulePaths: settings.scriptModulePaths,
            services: ScriptServices(http: settings.scriptHTTP)
        )
        if !report.hooks.contains(point.rawValue) {
            print("note: the script defines no \(point.rawValue); the server would pass it through")
        }
        var failed = false
        switch report.outcome {
        case .value(let json):
            print("result: \(json)")
            do {
                try point.checkResult(try JSONValue(parsing: json))
            } catch {
                failed = true
                print("invalid result: \(error)")
            }
        case .failed(let message):
            failed = true
            print("failed: \(message)")
        case .timedOut:
            failed = true
            print("timed out: stopped after its budget of \(budget)")
        }
        print("console:" + (report.console.isEmpty ? " (none)" : ""))
        for line in report.console {
            print("  [\(line.level)] \(line.text)")
        }
        let micros = Double(report.duration.components.attoseconds) / 1e12 + Double(report.duration.components.seconds) * 1e6
        print(String(format: "duration: %.3f ms", micros / 1000))
        if failed { throw ExitCode.failure }
    }
}
