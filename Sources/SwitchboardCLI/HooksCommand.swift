import ArgumentParser

/// `switchboard hooks …`: look at the hook handlers without running the server.
struct HooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Inspect the hook handlers.",
        subcommands: [HooksList.self]
    )
}
