import Foundation

/// CPU time in seconds (user plus system, all threads) of a server process and of the script
/// hosts it started (those running and those it has reaped), read from /proc.
struct ProcessCPU {
    var server: Double
    var hosts: Double
    var total: Double { server + hosts }

    static let zero = ProcessCPU(server: 0, hosts: 0)

    static func - (after: ProcessCPU, before: ProcessCPU) -> ProcessCPU {
        ProcessCPU(server: after.server - before.server, hosts: after.hosts - before.hosts)
    }

    static func + (one: ProcessCPU, other: ProcessCPU) -> ProcessCPU {
        ProcessCPU(server: one.server + other.server, hosts: one.hosts + other.hosts)
    }

    /// Process `pid`'s own CPU time so far, and its children's: the script hosts of a server.
    static func of(_ pid: Int32) throws -> ProcessCPU {
        let own = try statFields(of: pid)
        var hostTicks = own?.reapedChildrenTicks ?? 0
        let processes = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init)
        for other in processes where other != pid {
            if let fields = try? statFields(of: other), fields.parent == pid { hostTicks += fields.ownTicks }
        }
        return ProcessCPU(server: Double(own?.ownTicks ?? 0) / tick, hosts: Double(hostTicks) / tick)
    }

    /// User plus system CPU time so far of every process named `name` (PostgreSQL's
    /// backends: `postgres`).
    static func seconds(ofProcessesNamed name: String) throws -> Double {
        let processes = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init)
        let ticks = processes.compactMap { try? statFields(of: $0) }.filter { $0.name == name }.map(\.ownTicks).reduce(0, +)
        return Double(ticks) / tick
    }

    private static var tick: Double { Double(sysconf(Int32(_SC_CLK_TCK))) }

    private struct StatFields {
        var name: Substring
        var parent: Int32
        var ownTicks: Int
        var reapedChildrenTicks: Int
    }

    /// From /proc/PID/stat: ppid (field 4), utime and stime (14, 15), cutime and cstime (16, 17).
    private static func statFields(of pid: Int32) throws -> StatFields? {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) may hold spaces; the fields after it are counted from its ')'.
        guard let start = stat.firstIndex(of: "("), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // fields[0] is field 3, so field n is fields[n - 3].
        guard fields.count > 14, let parent = Int32(fields[1]) else { return nil }
        let ticks = (11...14).map { Int(fields[$0]) ?? 0 }
        return StatFields(
            name: stat[stat.index(after: start)..<end], parent: parent, ownTicks: ticks[0] + ticks[1], reapedChildrenTicks: ticks[2] + ticks[3]
        )
    }
}
