import ArgumentParser

/// `switchboard hooks …`: look at the hook handlers without running the server.
struct HooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Inspect, check and try the hook handlers and scripts.",
        subcommands: [HooksList.self, HooksCheck.self, HooksTest.self]
    )
}
