import CJavaScriptCore
#if canImport(Glibc)
import Glibc
#endif

/// JavaScriptCore's options, set once before the first VM is made (they are fixed from then on).
enum JavaScriptCoreOptions {
    /// Polling traps: JIT code checks for the time limit at loop back-edges instead of
    /// being interrupted by a signal. With signals, a runaway loop was sometimes never
    /// stopped while several VMs ran at once (the stress test in ScriptLibraryTests hung
    /// every time). An operator's own `JSC_usePollingTraps` wins. Set through the options API,
    /// not `setenv`: setting a variable reallocates `environ` under any thread reading it,
    /// and a test process starting a child at that moment crashed.
    static let applied: Void = {
        if getenv("JSC_usePollingTraps") == nil {
            _ = jsc_options_set_boolean("usePollingTraps", 1)
        }
    }()
}
