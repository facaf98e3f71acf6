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
    /// The resident memory the watch last read.
    private let lastSeen = Atomic<Int>(0)

    init(allowance: Int) {
        self.allowance = allowance
    }

    /// Records what the host holds now, between calls, as the base the allowance adds to.
    func settle() {
        let resident = Self.residentBytes()
        settled.store(resident, ordering: .relaxed)
        lastSeen.store(resident, ordering: .relaxed)
    }

    /// Resident memory as of the watch's last look, at most a few milliseconds old: free to
    /// read, where reading /proc costs a system call.
    var resident: Int { lastSeen.load(ordering: .relaxed) }

    /// Watches from a thread of its own, which also runs `tick` each time it wakes.
    func start(tick: @escaping @Sendable () -> Void) {
        settle()
        let parent = getppid()
        let thread = Thread { [self] in
            while true {
                usleep(Self.interval)
                tick()
                let resident = Self.residentBytes()
                lastSeen.store(resident, ordering: .relaxed)
                if resident > settled.load(ordering: .relaxed) + allowance {
                    _exit(Self.exitCode)
                }
                // A host busy in a script never reads the closed pipe of a server that died.
                if getppid() != parent { _exit(0) }
            }
        }
        thread.start()
    }

    /// Opened once: the watch reads it 200 times a second, and opening it each time cost
    /// more than reading it.
    private static let statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The second field of /proc/self/statm (resident pages), in bytes; 0 if unreadable.
    static func residentBytes() -> Int {
        guard statm >= 0 else { return 0 }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            let count = pread(statm, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return 0 }
            var fields = buffer[0..<count].split(separator: UInt8(ascii: " "), maxSplits: 2).dropFirst().makeIterator()
            guard let resident = fields.next(), !resident.isEmpty else { return 0 }
            var pages = 0
            for digit in resident {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return 0 }
                pages = pages * 10 + Int(digit - UInt8(ascii: "0"))
            }
            return pages * pageSize
        }
    }
}
