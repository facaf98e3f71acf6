import Foundation

extension ServerProcess {
    /// Returns once the server has logged a line containing `text`: for what it does on its
    /// own, when nothing a client sees tells.
    func waitUntilLogged(_ text: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let logged = try? String(contentsOfFile: log, encoding: .utf8), logged.contains(text) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "\"\(text)\" not logged within \(timeout)")
    }
}
