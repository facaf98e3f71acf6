import CJavaScriptCore
import Foundation

/// One script loaded into a VM of its own (a JavaScriptCore context group): its own global
/// object, its own CPU time limit, its own heap to measure.
///
/// Not thread-safe: a `ScriptWorker` owns it and calls it from its one thread.
final class ScriptContext {
    /// What a call produced.
    enum Outcome: Equatable {
        case value(String)
        case failed(String)
        case timedOut
        /// The call waits for the server's answers to these questions (JSON); hand them to
        /// `resume`.
        case asking(String)
    }

    /// Whether the last call left console lines to drain.
    private(set) var hasLogs = false
    /// Kept by the host, which measures the heap now and then: when it last did (uptime
    /// nanoseconds), and the host's resident memory then.
    var lastHeapCheck: (uptime: UInt64, resident: Int) = (0, 0)
    /// The CPU time each entry into JavaScript may take.
    private(set) var budget: Duration = .zero

    /// A call into JavaScript that threw.
    private enum CallFailure: Error {
        case threw(String)
        case terminated

        var outcome: Outcome {
            switch self {
            case .threw(let message): .failed(message)
            case .terminated: .timedOut
            }
        }
    }

    let file: String
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    private let host: JSObjectRef
    private let invokeFunction: JSObjectRef
    private let settledFunction: JSObjectRef
    private let drainLogsFunction: JSObjectRef

    /// What a VM runs: one file, or a project folder's files (by path within the folder)
    /// from its entry module.
    enum Source: Sendable {
        case file(String)
        case project(files: [String: String], entry: String)
    }

    /// Loads one file after the prelude, with `env` as its `process.env`. Throws with the
    /// script's file and line.
    convenience init(source: String, file: String, budget: Duration, env: [String: String] = [:]) throws(ScriptError) {
        try self.init(.file(source), name: file, budget: budget, env: env)
    }

    /// Loads a file or a project after the prelude; `name` is the file's or the folder's.
    init(_ source: Source, name file: String, budget: Duration, env: [String: String] = [:]) throws(ScriptError) {
        self.file = file
        JavaScriptCoreOptions.applied
        let group = JSContextGroupCreate()!
        let context = JSGlobalContextCreateInGroup(group, nil)!
        self.group = group
        self.context = context
        JSString.with(file) { JSGlobalContextSetName(context, $0) }
        ModuleCompiler.install(in: context)
        let files: [String: String] = if case .project(let files, _) = source { files } else { [:] }
        ProjectModules.install(files, in: context)
        NodeModules.install(in: context)
        NativeCrypto.install(in: context)

        do {
            try Self.evaluate(Prelude.source, in: context, file: Prelude.file)
        } catch {
            preconditionFailure("the prelude must load: \(error)")
        }
        JSString.with("eval and new Function are disabled in hook scripts") { JSGlobalContextSetEvalEnabled(context, false, $0) }
        let global = JSContextGetGlobalObject(context)!
        host = Self.property("__switchboard", of: global, in: context)!
        invokeFunction = Self.property("invoke", of: host, in: context)!
        settledFunction = Self.property("settled", of: host, in: context)!
        drainLogsFunction = Self.property("drainLogs", of: host, in: context)!
        setBudget(budget)
        if let setEnv = Self.property("setEnv", of: host, in: context),
           let json = try? JSONEncoder().encode(env) {
            JSString.with(String(decoding: json, as: UTF8.self)) { text in
                var arguments: [JSValueRef?] = [JSValueMakeString(context, text)]
                _ = try? call(setEnv, arguments: &arguments)
            }
        }
        switch source {
        case .file(let text):
            // An ES module's declarations are its own, not globals: it runs in a function of
            // its own, where `import AV from 'leanengine'` does not collide with the global
            // AV. Its `require` and `exports` are the globals.
            let module = ModuleSyntax.commonJS(text).map { "(function () {" + $0 + "\n})();" }
            try Self.evaluate(module ?? text, in: context, file: file)
        case .project(_, let entry):
            try runProject(entry: entry)
        }
        _ = callHost("startCalls")
    }

    /// Runs a project's entry module; its files are the VM's `ProjectModules`.
    private func runProject(entry: String) throws(ScriptError) {
        guard let run = Self.property("runProject", of: host, in: context) else {
            throw ScriptError(file: file, line: nil, message: "the project could not be handed to the VM")
        }
        var exception: JSValueRef?
        JSString.with(file) { name in
            JSString.with(entry) { entryRef in
                let arguments: [JSValueRef?] = [JSValueMakeString(context, name), JSValueMakeString(context, entryRef)]
                _ = arguments.withUnsafeBufferPointer { JSObjectCallAsFunction(context, run, host, 2, $0.baseAddress, &exception) }
            }
        }
        if let exception { throw Self.scriptError(exception, in: context, file: file) }
    }

    /// The Promise of a call that waits for answers, kept from the collector until then.
    private var waitingBox: JSValueRef?
    /// The hook names calls were made with (hook points, a handful), as JavaScript strings
    /// kept from the first call: making the name anew for every call cost a string, and
    /// looking it up an atomization.
    private var hookNames: [String: JSValueRef] = [:]

    deinit {
        if let waitingBox { JSValueUnprotect(context, waitingBox) }
        for name in hookNames.values { JSValueUnprotect(context, name) }
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// Caps the CPU time of each entry into this script's JavaScript.
    func setBudget(_ budget: Duration) {
        self.budget = budget
        let seconds = Double(budget.components.seconds) + Double(budget.components.attoseconds) / 1e18
        JSContextGroupSetExecutionTimeLimit(group, max(seconds, 0.001), { _, _ in true }, nil)
    }

    /// The hook names the script defined.
    var hooks: [String] {
        guard let json = callHost("hooks"), let names = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { return [] }
        return names
    }

    /// What the script declared that Switchboard does not run: `function hello`,
    /// `beforeSave Post`, ...
    var inert: [String] {
        guard let json = callHost("inert"), let names = try? JSONDecoder().decode([String].self, from: Data(json.utf8)) else { return [] }
        return names
    }

    /// What the script asked for with `AV.Cloud.setHookOptions`, as JSON.
    var optionsJSON: String {
        guard let options = Self.property("options", of: host, in: context) else { return "{}" }
        var exception: JSValueRef?
        guard let value = JSObjectCallAsFunction(context, options, host, 0, nil, &exception), exception == nil else { return "{}" }
        return JSString.string(of: value, in: context) ?? "{}"
    }

    /// Calls the script's handler for `hook` with `params` (JSON) and waits for its result,
    /// Promise or not. Budget overruns stop the script and come back as `.timedOut`.
    func invoke(hook: String, paramsJSON: String) -> Outcome {
        let box: JSValueRef
        do {
            let name = hookName(hook)
            box = try JSString.with(paramsJSON) { paramsRef in
                var arguments: [JSValueRef?] = [name, JSValueMakeString(context, paramsRef)]
                return try call(invokeFunction, arguments: &arguments)
            }
        } catch let failure as CallFailure {
            // Stopped, it could not say whether it logged: look.
            hasLogs = true
            return failure.outcome
        } catch {
            return .failed("\(error)")
        }
        if JSValueIsString(context, box) { return decode(box) }
        return settle(box)
    }

    private func hookName(_ hook: String) -> JSValueRef {
        if let name = hookNames[hook] { return name }
        let name = JSString.with(hook) { JSValueMakeString(context, $0)! }
        JSValueProtect(context, name)
        hookNames[hook] = name
        return name
    }

    /// Continues a call that asked the server for something, with its answers (JSON).
    func resume(answersJSON: String) -> Outcome {
        guard let box = waitingBox, let answer = Self.property("answer", of: host, in: context) else {
            return .failed("no call is waiting for answers")
        }
        JSValueUnprotect(context, box)
        waitingBox = nil
        do {
            try JSString.with(answersJSON) { json in
                var arguments: [JSValueRef?] = [JSValueMakeString(context, json)]
                _ = try call(answer, arguments: &arguments)
            }
        } catch let failure as CallFailure {
            return failure.outcome
        } catch {
            return .failed("\(error)")
        }
        return settle(box)
    }

    /// Gives up on the call waiting for answers; its Promise is left to the collector.
    func abandonWaitingCall() {
        if let waitingBox { JSValueUnprotect(context, waitingBox) }
        waitingBox = nil
    }

    /// A call's Promise after the microtask queue ran (leaving a call into JavaScript runs
    /// it): its result, the questions it waits on, or a failure if it can never settle.
    private func settle(_ box: JSValueRef) -> Outcome {
        var arguments: [JSValueRef?] = [box]
        if let settled = try? call(settledFunction, arguments: &arguments), JSValueIsString(context, settled) {
            return decode(settled)
        }
        guard let questions = callHostString("takeQuestions"), questions != "[]" else {
            // What it logged (a refused save, say) is most of what tells why.
            hasLogs = true
            return .failed("the hook never answered: its Promise never settled, or it never called response.success or response.error")
        }
        JSValueProtect(context, box)
        waitingBox = box
        return .asking(questions)
    }

    /// Reads the prelude's encoding: 'o' or 'e', '1' if console lines wait, then the text.
    private func decode(_ value: JSValueRef) -> Outcome {
        let text = JSString.string(of: value, in: context) ?? "e0unreadable result"
        var characters = text.makeIterator()
        let state = characters.next()
        hasLogs = characters.next() == "1"
        let payload = String(text.dropFirst(2))
        return state == "o" ? .value(payload) : .failed(payload)
    }

    /// Console lines written since the last drain: (level, text).
    func drainLogs() -> [(String, String)] {
        hasLogs = false
        var none: [JSValueRef?] = []
        guard let array = try? call(drainLogsFunction, arguments: &none), let json = JSValueCreateJSONString(context, array, 0, nil) else {
            return []
        }
        defer { JSStringRelease(json) }
        let lines = (try? JSONDecoder().decode([[String]].self, from: Data(JSString.string(json).utf8))) ?? []
        return lines.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }

    /// The bytes the VM holds for JavaScript: its heap's capacity plus memory outside it
    /// (array buffers, large strings). Capacity, not live size: it is known without a
    /// collection and it is what the process pays. Memory just allocated outside the heap is
    /// counted only once a collection has seen it, so after a slow call collect the young
    /// generation first (a few milliseconds, against the call's own).
    func heapSize(collectingYoungFirst: Bool) -> Int {
        if collectingYoungFirst { JSSynchronousEdenCollectForDebugging(context) }
        guard let statistics = JSGetMemoryUsageStatistics(context) else { return 0 }
        return ["heapCapacity", "extraMemorySize"].reduce(0) { total, key in
            guard let value = JSString.with(key, { JSObjectGetProperty(context, statistics, $0, nil) }) else { return total }
            return total + Int(JSValueToNumber(context, value, nil))
        }
    }

    // MARK: JavaScriptCore plumbing

    private func call(_ function: JSObjectRef, arguments: inout [JSValueRef?]) throws(CallFailure) -> JSValueRef {
        var exception: JSValueRef?
        let result = arguments.withUnsafeBufferPointer { buffer in
            JSObjectCallAsFunction(context, function, host, buffer.count, buffer.baseAddress, &exception)
        }
        if let exception {
            // A script stopped by the time limit throws an uncatchable termination exception.
            let text = JSString.string(of: exception, in: context) ?? "unknown error"
            throw text.contains("JavaScript execution terminated") ? .terminated : .threw(text)
        }
        guard let result else { throw .threw("no result") }
        return result
    }

    /// A host function's string result.
    private func callHostString(_ name: String) -> String? {
        guard let function = Self.property(name, of: host, in: context) else { return nil }
        var none: [JSValueRef?] = []
        guard let value = try? call(function, arguments: &none), JSValueIsString(context, value) else { return nil }
        return JSString.string(of: value, in: context)
    }

    private func callHost(_ name: String) -> String? {
        guard let function = Self.property(name, of: host, in: context) else { return nil }
        var none: [JSValueRef?] = []
        guard let value = try? call(function, arguments: &none), let json = JSValueCreateJSONString(context, value, 0, nil) else {
            return nil
        }
        defer { JSStringRelease(json) }
        return JSString.string(json)
    }

    private static func property(_ name: String, of object: JSObjectRef, in context: JSContextRef) -> JSObjectRef? {
        JSString.with(name) { nameRef in
            guard let value = JSObjectGetProperty(context, object, nameRef, nil), JSValueIsObject(context, value) else { return nil }
            return JSValueToObject(context, value, nil)
        }
    }

    private static func evaluate(_ source: String, in context: JSGlobalContextRef, file: String) throws(ScriptError) {
        var exception: JSValueRef?
        JSString.with(source) { sourceRef in
            JSString.with(file) { fileRef in
                _ = JSEvaluateScript(context, sourceRef, nil, fileRef, 1, &exception)
            }
        }
        guard let exception else { return }
        throw scriptError(exception, in: context, file: file)
    }

    /// The exception as `file:line: message`; a module's error names its own file.
    private static func scriptError(_ exception: JSValueRef, in context: JSContextRef, file: String) -> ScriptError {
        let message = JSString.string(of: exception, in: context) ?? "unknown error"
        guard let object = JSValueToObject(context, exception, nil) else { return ScriptError(file: file, line: nil, message: message) }
        func property(_ name: String) -> JSValueRef? { JSString.with(name) { JSObjectGetProperty(context, object, $0, nil) } }
        let line = property("line").flatMap { JSValueIsNumber(context, $0) ? Int(JSValueToNumber(context, $0, nil)) : nil }
        let source = property("sourceURL").flatMap { JSValueIsString(context, $0) ? JSString.string(of: $0, in: context) : nil }
        // Thrown by the prelude on the script's behalf (an unknown hook, a missing module):
        // the message says where; the prelude's own line would only mislead.
        if source == Prelude.file { return ScriptError(file: file, line: nil, message: message) }
        return ScriptError(file: source ?? file, line: line, message: message)
    }
}
