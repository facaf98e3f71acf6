@testable import SwitchboardServer

/// A config file's text, written to a file of its own and loaded as the server loads its config.
enum ConfigText {
    static func load(_ yaml: String) throws -> ServerConfig {
        let file = TestServer.temporaryDirectory() + "/switchboard.yaml"
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        return try ServerConfig.load(path: file)
    }
}
