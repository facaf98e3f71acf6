import Foundation
import Testing
@testable import SwitchboardJS

@Suite struct ScriptHostProcessTests {
    /// SwiftNIO accepts sockets without close-on-exec. A host that inherited one kept the
    /// client connected after the server closed it (found as a connection the request-head
    /// deadline could not close while a test's script hosts started).
    @Test func hostsGetNoneOfTheServersDescriptors() throws {
        let path = TestServer.temporaryDirectory() + "/held-open"
        FileManager.default.createFile(atPath: path, contents: nil)
        let descriptor = open(path, O_RDONLY)  // no O_CLOEXEC, like an accepted socket
        defer { close(descriptor) }
        let host = try HostProcess.launch(executable: HostProcess.executable, allowance: 64 << 20)
        defer {
            host.kill()
            _ = host.reap()
        }
        let held = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(host.pid)/fd/\(descriptor)")
        #expect(held != path)
    }
}
