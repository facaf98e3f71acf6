import ArgumentParser
import SwitchboardHooks
import SwitchboardJS

/// The `switchboard` command line. A server built on this library runs it with its own
/// plugins, and gets the same `serve` and `hooks` commands:
///
/// ```swift
/// @main struct MyServer {
///     static func main() async { await SwitchboardCommand.main(plugins: [MyPlugin()]) }
/// }
/// ```
public struct SwitchboardCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "An instant-messaging server that speaks LeanCloud's realtime protocol.",
        subcommands: [Serve.self, HooksCommand.self, LeanCloudCommand.self, ConfigCommand.self],
        defaultSubcommand: Serve.self
    )

    /// Plugins compiled into this executable, for the commands that build a server.
    @TaskLocal static var plugins: [any SwitchboardPlugin] = []

    public init() {}

    /// Parses the process arguments and runs the command, with `plugins` registered.
    public static func main(plugins: [any SwitchboardPlugin]) async {
        // Hook scripts run in child processes of this same executable.
        ScriptHost.takeOverIfRequested()
        await $plugins.withValue(plugins) {
            await main()
        }
    }
}
