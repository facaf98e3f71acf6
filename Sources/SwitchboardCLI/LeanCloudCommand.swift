import ArgumentParser

/// `switchboard leancloud …`: moving an app in from LeanCloud.
struct LeanCloudCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leancloud",
        abstract: "Move an app in from LeanCloud.",
        subcommands: [LeanCloudImport.self, LeanCloudExport.self]
    )
}
