import Foundation

/// Where the server reads the time of day: message and conversation times, edit windows,
/// silences and expiries, device and token ages. The server runs on `SystemWallClock`; tests
/// give the core a clock they move by hand, so a window of minutes is crossed without waiting
/// for it. Pacing between frames and the periods of background work are durations, not times
/// of day, and stay on Swift's monotonic clocks.
public protocol WallClock: Sendable {
    /// Milliseconds since 1970-01-01 UTC.
    func now() -> Int64
}

/// The system's time of day.
public struct SystemWallClock: WallClock {
    public init() {}

    public func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
