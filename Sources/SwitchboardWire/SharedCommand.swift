/// A command going to many clients, encoded once. The copies differ only in `peerId`, and a
/// protobuf field may follow the others in any order, so each copy is the shared bytes with
/// its `peerId` appended.
public struct SharedCommand: Sendable {
    /// The command without `peerId`.
    public let command: GenericCommand
    /// The encoding of `command`, which other nodes receive as it is.
    public let protobuf: [UInt8]

    public init(_ command: GenericCommand) {
        var unaddressed = command
        unaddressed.clearPeerID()
        self.command = unaddressed
        // Serializing with partial: true cannot throw for a message we built.
        protobuf = (try? unaddressed.serializedBytes(partial: true)) ?? []
    }

    /// A command another node encoded (`protobuf`).
    public init(protobuf: [UInt8]) throws {
        command = try GenericCommand(serializedBytes: protobuf)
        self.protobuf = protobuf
    }

    /// The command as `peerID` receives it.
    public func addressed(to peerID: String) -> GenericCommand {
        var addressed = command
        addressed.peerID = peerID
        return addressed
    }

    /// The protobuf encoding of `addressed(to: peerID)`.
    func protobuf(addressedTo peerID: String) -> [UInt8] {
        let name = Array(peerID.utf8)
        var bytes = protobuf
        bytes.reserveCapacity(protobuf.count + name.count + 6)
        bytes.append(Self.peerIDTag)
        var length = name.count
        while length >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: length) | 0x80)
            length >>= 7
        }
        bytes.append(UInt8(length))
        bytes += name
        return bytes
    }

    /// `peerId` is field 4 of GenericCommand, length-delimited (wire type 2).
    private static let peerIDTag: UInt8 = 4 << 3 | 2
}
