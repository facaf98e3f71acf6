#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Inside a script host: ends the process when its resident memory passes a limit. The
/// heap statistics of a VM are read between calls only, so one call could take gigabytes
/// before anyone looked; resident memory, read every few milliseconds from another thread,
/// catches it while it grows. The server sees the exit code and blames the running call.
final class MemoryWatch: Sendable {
    static let exitCode: Int32 = 86
    private static let interval: UInt32 = 5_000

    /// Memory the host may hold before any call: the VMs' own as they loaded.
    private let settled = Atomic<Int>(0)
    /// How far past `settled` a call may take the process.
    private let allowance: Int

    init(allowance: Int) {
        self.allowance = allowance
    }

    /// Records what the host holds now, between calls, as the base the allowance adds to.
    func settle() {
        settled.store(Self.residentBytes(), ordering: .relaxed)
    }

    func start() {
        settle()
        let parent = getppid()
        let thread = Thread { [self] in
            while true {
                usleep(Self.interval)
                if Self.residentBytes() > settled.load(ordering: .relaxed) + allowance {
                    _exit(Self.exitCode)
                }
                // A host busy in a script never reads the closed pipe of a server that died.
                if getppid() != parent { _exit(0) }
            }
        }
        thread.start()
    }

    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
        guard count > 0 else { return 0 }
        let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
