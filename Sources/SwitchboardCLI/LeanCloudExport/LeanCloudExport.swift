import ArgumentParser
import Dispatch
import Foundation
import SwitchboardData
import SwitchboardJSON

/// `switchboard leancloud export`: an app's IM data and classes, pulled from LeanCloud (or
/// any server that answers its REST API) into an export folder for `leancloud import`.
struct LeanCloudExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export an app's conversations, their lists, installations, classes and message history from LeanCloud's REST API into a folder (docs/leancloud-export-format.md). Paced, retried, resumable: run it again to go on after an interruption, or later to fetch what changed since.",
        discussion: """
            In order: _Conversation, _ConversationMemberInfo, _Installation and the classes named (or every class the app has) \
            through /1.1/scan/classes; each conversation's blocked and silenced members, and system conversations' subscribers; \
            every message through /1.2/rtm/messages, oldest first. Ctrl-C saves and stops.
            """
    )

    @Option(help: "The app's API server, e.g. https://APPID.lc-cn-n1-shared.com.")
    var server: String

    @Option(help: "The app's id.")
    var appId: String

    @Option(help: "The app's master key; without it, LEANCLOUD_APP_MASTER_KEY's (which other users' ps does not show).")
    var masterKey: String?

    @Option(help: "The export folder: made if need be; one that holds an export of the same app is taken up where it stands.")
    var out: String

    @Option(name: .customLong("class"), help: "A class to export besides the IM ones (repeatable). None: every class GET /1.1/schemas lists.")
    var classes: [String] = []

    @Option(help: "Requests a second, at most.")
    var rate = 10.0

    @Option(help: "For a first run: ask only for objects, lists and messages changed from this date on (ISO 8601, e.g. 2026-11-01T00:00:00Z).")
    var since: String?

    @Option(help: "Objects or messages a request (1 to 1000).")
    var pageSize = 1000

    @Option(help: "Seconds the server's clock may be behind this one: a later run asks for what changed since this long before the previous run started.")
    var skew = 300

    @Option(help: "Seconds to keep trying a request the server does not answer, or answers with 429 or 5xx, before stopping.")
    var retryFor = 1800

    /// The environment variable LeanEngine gives apps their master key in.
    static let masterKeyVariable = "LEANCLOUD_APP_MASTER_KEY"

    private var key: String? { masterKey ?? ProcessInfo.processInfo.environment[Self.masterKeyVariable] }

    func validate() throws {
        guard let key, !key.isEmpty else { throw ValidationError("--master-key or \(Self.masterKeyVariable) gives the app's master key") }
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--server is an http or https address, e.g. https://APPID.lc-cn-n1-shared.com")
        }
        guard rate > 0, rate.isFinite else { throw ValidationError("--rate is a number of requests a second, more than 0") }
        guard (1...1000).contains(pageSize) else { throw ValidationError("--page-size is 1 to 1000") }
        guard skew >= 0, retryFor >= 0 else { throw ValidationError("--skew and --retry-for are seconds, 0 or more") }
        if let since, ISODate.milliseconds(from: .string(since)) == nil {
            throw ValidationError("--since is an ISO 8601 date such as 2026-11-01T00:00:00Z, not \(since)")
        }
        for name in classes {
            do { try ClassNames.validate(className: name) } catch { throw ValidationError("--class \(name): \(error.message)") }
        }
    }

    func run() async throws {
        let settings = Exporter.Settings(
            server: URL(string: server)!, appID: appId, masterKey: key ?? "", folder: out, classes: classes, rate: rate,
            since: since.flatMap { ISODate.milliseconds(from: .string($0)) }, pageSize: pageSize, skew: .seconds(skew), retryFor: .seconds(retryFor)
        )
        let work = Task { () -> Int32 in
            let exporter: Exporter
            do {
                exporter = try Exporter(settings)
            } catch {
                // On both, as every failure is: the summary is on standard output.
                FileHandle.standardError.write(Data("leancloud export: \(error)\n".utf8))
                print("leancloud export of \(settings.appID) into \(settings.folder): stopped; \(error)")
                return 1
            }
            return await exporter.export()
        }
        // Ctrl-C (or a TERM) ends the export at its next record, which it saves first.
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { work.cancel() }
            source.resume()
            return source
        }
        let status = await work.value
        for source in signals { source.cancel() }
        if status != 0 { throw ExitCode(status) }
    }
}
