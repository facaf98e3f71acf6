import ArgumentParser
import Foundation
import SwitchboardData
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

    @Option(help: "A JSON file of app data the hook reads: {\"ClassName\": [row, ...], \"_Conversation\": [row, ...]}, rows as LeanStorage's REST API shows them. Writes go to a scratch copy, thrown away.")
    var data: String?

    @Flag(help: "Read app data and conversations from the config's database (app data from the hooks.storage server when it names one), read-only (writes are refused).")
    var store = false

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
        guard data == nil || !store else { throw ValidationError("give --data or --store, not both") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-hooks-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var appData: (any AppData)?
        do {
            if let data {
                appData = try await HooksTestData.fixtures(path: data, scratchDirectory: scratch)
            } else if store {
                appData = try await HooksTestData.store(of: settings)
            }
        } catch let error as HooksTestDataError {
            throw ValidationError(error.description)
        }
        let report = try await ScriptTrial.run(
            path: script, hook: point.rawValue, paramsJSON: paramsJSON, budget: budget, env: settings.scriptEnvironment,
            modulePaths: settings.scriptModulePaths,
            services: ScriptServices(data: appData, http: settings.scriptHTTP)
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
            if appData == nil { print("note: this run had no app data; --data FILE or --store gives the hook classes to read") }
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
