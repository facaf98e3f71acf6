// JavaScriptCore's public C API from WebKitGTK, plus the few private functions the library
// exports but whose headers it does not ship. Their declarations follow WebKit's
// JSContextRefPrivate.h and JSBasePrivate.h.
#ifndef SWITCHBOARD_CJAVASCRIPTCORE_SHIM_H
#define SWITCHBOARD_CJAVASCRIPTCORE_SHIM_H

#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Asked when a script has run past the group's time limit; true stops the script.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);

/// Limits how long one entry into JavaScript may run, in seconds of CPU time.
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

/// Turns `eval` and `new Function` on or off; when off they throw an EvalError with `message`.
JS_EXPORT void JSGlobalContextSetEvalEnabled(JSGlobalContextRef ctx, bool enabled, JSStringRef message);

/// Sets one of JavaScriptCore's options by name (WebKitGTK's GLib API, jsc/JSCOptions.h, declared
/// here as that header pulls GLib in); only before the first VM is made. False for an unknown
/// option. Unlike a JSC_* environment variable set at run time, it never touches `environ`,
/// which another thread may be reading to start a process.
JS_EXPORT int jsc_options_set_boolean(const char *option, int value);

/// An object with the VM's heap statistics: heapSize, heapCapacity, extraMemorySize, ...
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

/// Collects the young generation now. Memory outside the heap (array buffers) is counted in
/// the statistics only once a collection has visited its owner.
JS_EXPORT void JSSynchronousEdenCollectForDebugging(JSContextRef ctx);

#ifdef __cplusplus
}
#endif

#endif
