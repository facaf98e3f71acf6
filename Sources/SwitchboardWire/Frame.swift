import Foundation

/// One WebSocket message as the wire sees it, independent of the transport library.
public enum Frame: Sendable, Equatable {
    case binary([UInt8])
    case text(String)
}
