import Synchronization

/// Counts the app's REST requests of each class in fixed windows, a minute and a UTC day,
/// as LeanCloud words its limits, and refuses one past a limit until its window ends. Each
/// node counts its own requests.
final class RESTRateLimiter: Sendable {
    private struct Window {
        var index: Int64 = -1
        var count = 0
    }

    private static let minute: Int64 = 60_000
    private static let day: Int64 = 86_400_000

    private let limits: RESTRateLimits
    /// By class, then by window length.
    private let windows = Mutex<[RESTRateClass: [Int64: Window]]>([:])

    init(limits: RESTRateLimits) {
        self.limits = limits
    }

    /// Counts a request of `rateClass` made at `now` (milliseconds), or refuses it: the
    /// seconds until a full window ends. A refused request is not counted.
    func admit(_ rateClass: RESTRateClass, at now: Int64) -> Int64? {
        let (perMinute, perDay) = limits.limits(of: rateClass)
        let bounded = [(Self.minute, perMinute), (Self.day, perDay)].filter { $0.1 > 0 }
        guard !bounded.isEmpty else { return nil }
        return windows.withLock { windows in
            var current = windows[rateClass] ?? [:]
            for (length, _) in bounded where current[length]?.index != now / length {
                current[length] = Window(index: now / length, count: 0)
            }
            let full = bounded.filter { length, limit in current[length, default: Window()].count >= limit }
            if let wait = full.map({ length, _ in (now / length + 1) * length - now }).max() {
                return (wait + 999) / 1000
            }
            for (length, _) in bounded { current[length, default: Window()].count += 1 }
            windows[rateClass] = current
            return nil
        }
    }
}
