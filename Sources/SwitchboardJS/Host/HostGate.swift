import CHostGate
#if canImport(Glibc)
import Glibc
#endif

/// The page a script host shares with the server (see `CHostGate.h`), through which the
/// server takes back calls it wrote to a host that is stuck in a call past its budget, so
/// that they run on another host instead of waiting for this one to be killed and started
/// again, and never run twice.
final class HostGate: Sendable {
    /// The descriptor the host finds the page at.
    static let hostDescriptor: Int32 = 3

    // Safe to share: the pointer never changes, the page stays mapped until deinit (when no
    // one holds the gate any more), and both of its words are only read and written through
    // the C functions' atomic operations.
    private nonisolated(unsafe) let page: UnsafeMutablePointer<switchboard_host_gate>
    /// The page's descriptor, for the server to hand to the host; -1 in the host.
    let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A new page, on the server's side.
    init() throws(Failure) {
        let descriptor = switchboard_host_gate_create()
        guard descriptor >= 0, let page = switchboard_host_gate_map(descriptor) else {
            let why = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw Failure(description: "shared page for the script host: \(why)")
        }
        self.page = page
        self.descriptor = descriptor
    }

    /// Set in a host's environment when the page is at `hostDescriptor`: a host started by
    /// hand must not map whatever file it inherited there.
    static let environmentKey = "SWITCHBOARD_SCRIPT_HOST_GATE"

    /// The page the server handed this host, or nil if there is none.
    static func inHost() -> HostGate? {
        guard getenv(environmentKey).map({ String(cString: $0) }) == String(hostDescriptor) else { return nil }
        return switchboard_host_gate_map(hostDescriptor).map { HostGate(page: $0) }
    }

    private init(page: UnsafeMutablePointer<switchboard_host_gate>) {
        self.page = page
        descriptor = -1
    }

    deinit {
        switchboard_host_gate_unmap(page)
        if descriptor >= 0 { close(descriptor) }
    }

    /// In the host, before call `id`: false if the server took it back.
    func mayStart(_ id: Int64) -> Bool {
        switchboard_host_gate_start(page, id) != 0
    }

    /// On the server: the last call the host started (or skipped, if taken back).
    var lastStarted: Int64 {
        switchboard_host_gate_started(page)
    }

    /// On the server: takes back every call up to `through` not yet started; returns the
    /// last call the host started (calls above it, up to `through`, will never run there).
    func takeBack(through: Int64) -> Int64 {
        switchboard_host_gate_skip(page, through)
    }
}
