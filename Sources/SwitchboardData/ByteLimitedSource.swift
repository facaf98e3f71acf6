import Foundation
import SwitchboardArchives

/// The first `limit` bytes of a source: an export file as far as its manifest vouches for it.
final class ByteLimitedSource: ByteSource {
    private let source: any ByteSource
    private var left: Int

    init(_ source: any ByteSource, limit: Int) {
        self.source = source
        left = max(limit, 0)
    }

    func read(upTo limit: Int) throws -> Data {
        guard left > 0 else { return Data() }
        let data = try source.read(upTo: min(limit, left))
        left -= data.count
        return data
    }
}
