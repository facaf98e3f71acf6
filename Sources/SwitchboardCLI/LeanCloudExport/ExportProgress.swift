import Foundation

/// What an export is doing, on standard error: on a terminal one line redrawn in place (at
/// most five times a second); otherwise a plain line every few seconds. Notes (a retry, a
/// conversation gone) get lines of their own.
final class ExportProgress {
    let terminal = isatty(STDERR_FILENO) == 1
    private var lastShown: ContinuousClock.Instant?
    private var drawn = false

    private var every: Duration { terminal ? .milliseconds(200) : .seconds(5) }

    /// Shows `status` if the last one shown is old enough.
    func show(_ status: @autoclosure () -> String) {
        let now = ContinuousClock.now
        if let lastShown, now - lastShown < every { return }
        lastShown = now
        if terminal {
            write("\r\u{1B}[2K" + status())
            drawn = true
        } else {
            write(status() + "\n")
        }
    }

    func note(_ text: String) {
        clear()
        write(text + "\n")
    }

    /// Takes the redrawn line away, for what is printed after it.
    func clear() {
        guard drawn else { return }
        write("\r\u{1B}[2K")
        drawn = false
        lastShown = nil
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `1h 02m`, `3m 05s`, `12s`, `0.4s`.
    static func format(_ duration: Duration) -> String {
        let seconds = Self.seconds(duration)
        if seconds < 10 { return String(format: "%.1fs", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return String(format: "%dm %02ds", whole / 60, whole % 60) }
        return String(format: "%dh %02dm", whole / 3600, whole / 60 % 60)
    }

    /// The duration in seconds, fractions kept.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `51,234`.
    static func count(_ number: Int) -> String {
        number.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }
}
