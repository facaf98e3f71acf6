#if canImport(Glibc)
import Glibc
#endif

/// JavaScriptCore reads its options from `JSC_*` environment variables once, when the first
/// VM is made; these must be in place before then.
enum JavaScriptCoreOptions {
    /// Polling traps: JIT code checks for the time limit at loop back-edges instead of
    /// being interrupted by a signal. With signals, a runaway loop was sometimes never
    /// stopped while several VMs ran at once (the stress test in ScriptLibraryTests hung
    /// every time). An operator's own setting of the variable wins.
    static let applied: Void = {
        setenv("JSC_usePollingTraps", "true", 0)
    }()
}
