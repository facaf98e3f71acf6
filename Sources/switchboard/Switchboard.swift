import ArgumentParser

@main
struct Switchboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "An instant-messaging server that speaks LeanCloud's realtime protocol.",
        subcommands: [Serve.self],
        defaultSubcommand: Serve.self
    )
}
