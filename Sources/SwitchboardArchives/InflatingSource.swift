import CZlib
import Foundation

/// What a deflate stream holds, decompressed as it is read, through zlib: raw deflate (a zip
/// entry's data), or gzip (a .tar.gz: every member in turn, zlib checking each one's CRC-32
/// and length against its trailer).
public final class InflatingSource: ByteSource {
    public enum Format: Sendable {
        case rawDeflate
        case gzip
    }

    static let inputBlock = 256 * 1024

    private let source: any ByteSource
    private let format: Format
    /// zlib's state points back at its stream, which therefore never moves: it lives here.
    private let stream: UnsafeMutablePointer<z_stream>
    private var input = Data()
    private var inputOffset = 0
    private var sourceEnded = false
    private var finished = false

    public init(_ source: any ByteSource, format: Format) throws {
        self.source = source
        self.format = format
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Window bits: -15 is raw deflate, 15 + 16 a gzip wrapper.
        let status = inflateInit2_(stream, format == .rawDeflate ? -15 : 31, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ArchiveError("zlib could not start (\(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// How many compressed bytes the stream took, up to its end once it is read through.
    var compressedBytesRead: UInt64 {
        UInt64(stream.pointee.total_in)
    }

    public func read(upTo limit: Int) throws -> Data {
        var output = Data(count: limit)
        var produced = 0
        while produced == 0, !finished {
            if inputOffset == input.count, !sourceEnded { try refill() }
            let (status, consumed, made) = inflateStep(into: &output, at: produced)
            inputOffset += consumed
            produced += made
            switch status {
            case Z_STREAM_END:
                // Another gzip member may follow (`cat a.gz b.gz` is a valid .gz).
                if format == .gzip, try moreInputFollows() {
                    inflateReset(stream)
                } else {
                    finished = true
                }
            case Z_OK:
                break
            case Z_BUF_ERROR where sourceEnded && consumed == 0 && made == 0:
                throw ArchiveError("the compressed data ends early (cut short?)")
            case Z_BUF_ERROR:
                break
            case Z_DATA_ERROR:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                if message == "incorrect data check" || message == "incorrect length check" { throw ArchiveError.checksumMismatch }
                throw ArchiveError("the compressed data is damaged (\(message))")
            default:
                throw ArchiveError("zlib failed (\(status))")
            }
        }
        output.count = produced
        return output
    }

    private func inflateStep(into output: inout Data, at offset: Int) -> (status: Int32, consumed: Int, made: Int) {
        let available = input.count - inputOffset
        return input.withUnsafeBytes { inputBuffer in
            output.withUnsafeMutableBytes { outputBuffer in
                let inputBase = inputBuffer.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) + inputOffset }
                stream.pointee.next_in = inputBase
                stream.pointee.avail_in = uInt(available)
                stream.pointee.next_out = outputBuffer.baseAddress!.assumingMemoryBound(to: Bytef.self) + offset
                stream.pointee.avail_out = uInt(outputBuffer.count - offset)
                let status = inflate(stream, Z_NO_FLUSH)
                return (status, available - Int(stream.pointee.avail_in), outputBuffer.count - offset - Int(stream.pointee.avail_out))
            }
        }
    }

    private func refill() throws {
        input = try source.read(upTo: Self.inputBlock)
        inputOffset = 0
        if input.isEmpty { sourceEnded = true }
    }

    private func moreInputFollows() throws -> Bool {
        if inputOffset < input.count { return true }
        guard !sourceEnded else { return false }
        try refill()
        return !sourceEnded
    }
}
