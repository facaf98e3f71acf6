import Foundation
import SwitchboardJSON

/// The `log` push provider's file, as tests read it.
enum PushLog {
    /// The pushes in the file at `path` once there are at least `count`, or fails after 5 s.
    static func lines(_ path: String, count: Int) async throws -> [JSONValue] {
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
            if lines.count >= count { return lines }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestClient.Timeout(description: "fewer than \(count) pushes in \(path)")
    }
}
