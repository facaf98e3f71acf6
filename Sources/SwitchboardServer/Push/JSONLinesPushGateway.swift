import Foundation
import Logging
import SwitchboardCore

/// The `log` push provider: one JSON line per push (recipients, their devices, payload and
/// provider hints) appended to a file, for an operator's own sender to pick up.
actor JSONLinesPushGateway: PushGateway {
    private let path: String
    private let logger: Logger
    private var handle: FileHandle?

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    func push(_ notice: PushNotice) async {
        do {
            let handle = try openHandle()
            try handle.write(contentsOf: Data((notice.json.jsonString + "\n").utf8))
        } catch {
            logger.error("push not written", metadata: ["file": "\(path)", "error": "\(error)", "message": "\(notice.messageID)"])
        }
    }

    private func openHandle() throws -> FileHandle {
        if let handle { return handle }
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
            )
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let opened = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try opened.seekToEnd()
        handle = opened
        return opened
    }
}
