#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// The script host: a child process of the server that runs hook scripts, reading requests
/// on standard input and answering on standard output. Scripts run in a process of their
/// own because JavaScriptCore cannot bound everything a script starts in-process: Promise
/// continuations each get a fresh time limit, so an endless chain of them never stops, and
/// its heap grows before anyone can measure it. A process can be killed, and its memory goes
/// with it.
public enum ScriptHost {
    /// Set in a host's environment; executables built on `SwitchboardCommand` check it first.
    public static let environmentKey = "SWITCHBOARD_SCRIPT_HOST"
    /// How far past its loaded size a host may grow, in bytes.
    static let allowanceKey = "SWITCHBOARD_SCRIPT_HOST_ALLOWANCE"

    /// Whether this process was started as a script host.
    public static var isRequested: Bool {
        getenv(environmentKey).map { String(cString: $0) == "1" } ?? false
    }

    /// For the `main` of an executable built on the library, before anything else: in a
    /// process started as a script host, serves as one and never returns; otherwise records
    /// this executable as the one hosts are started from.
    public static func takeOverIfRequested() {
        if isRequested { run() }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        HostProcess.registeredExecutable.withLock { $0 = executable }
    }

    /// Serves requests until the server closes the pipe, then exits.
    static func run() -> Never {
        signal(SIGPIPE, SIG_IGN)
        let allowance = getenv(allowanceKey).flatMap { Int(String(cString: $0)) } ?? (128 << 20)
        let memory = MemoryWatch(allowance: allowance)
        // The first VM sets JavaScriptCore up, which takes more memory than a script: the
        // allowance counts from after that.
        _ = try? ScriptContext(source: "", file: "warm-up", budget: .seconds(1))
        let gate = HostGate.inHost()
        var channel = HostChannel(holdsReplies: gate != nil)
        // The watch thread wakes every few milliseconds anyway: it writes out replies a long
        // call would otherwise keep waiting behind it.
        memory.start { [replies = channel.replies] in replies.flush() }
        var host = HostedScripts(memory: memory, gate: gate)
        channel.write(.ready)
        while let request = channel.next() {
            host.handle(request, on: &channel)
        }
        exit(0)
    }
}

/// The scripts one host holds, and what it does with each request.
private struct HostedScripts {
    /// Time between two heap measurements of a script VM while the host's memory holds
    /// still: the statistics walk the whole heap and count its objects by type, about a
    /// millisecond for a small script (every 50 ms, it was a third of a trivial call's CPU).
    static let heapCheckInterval: UInt64 = 1_000_000_000
    /// Measured sooner once the host's resident memory has grown this much since: a heap
    /// that grows is seen while it grows, not a second later.
    static let heapCheckGrowth = 1 << 20
    /// A call this long is measured at once: allocating a lot takes time.
    static let slowCallThreshold: UInt64 = 2_000_000
    /// Results are content (5 KB), recipients (500 ids) and a push payload (4 KB): a result
    /// far larger is a script trying to make the server parse it.
    static let maxResultBytes = 256 << 10
    /// Times one call may wait for the server's answers (queries run side by side count once).
    static let maxQuestionRounds = 16

    let memory: MemoryWatch
    /// Where the server takes back calls before they start; nil if it gave none.
    let gate: HostGate?
    var contexts: [ScriptWorker.Key: ScriptContext] = [:]

    mutating func handle(_ request: HostRequest, on channel: inout HostChannel) {
        switch request {
        case .load(let id, let key, let file, let source, let budget, let envJSON):
            channel.flush()
            defer { memory.settle() }
            do throws(ScriptError) {
                let env = (try? JSONDecoder().decode([String: String].self, from: Data(envJSON.utf8))) ?? [:]
                let context = try ScriptContext(source, name: file, budget: .nanoseconds(budget), env: env)
                contexts[key] = context
                channel.write(.loaded(id: id, .success(ScriptWorker.LoadReport(
                    hooks: context.hooks, inert: context.inert, optionsJSON: context.optionsJSON,
                    logs: context.drainLogs().map { (level: $0.0, text: $0.1) }
                ))))
            } catch {
                channel.write(.loaded(id: id, .failure(error)))
            }
        case .setBudget(let key, let budget):
            contexts[key]?.setBudget(.nanoseconds(budget))
        case .invoke(let id, let key, let hook, let params):
            // Taken back while this host was stuck in an earlier call: it runs elsewhere, and
            // the server expects no answer from here.
            guard gate?.mayStart(id) ?? true else { return }
            let (result, asked) = call(id, key, hook: hook, paramsJSON: params, on: &channel)
            // A call that asked the server did something outside its VM: its reply must not
            // be lost, or it would run again (see `HostChannel`).
            if asked { channel.write(.called(id: id, result)) } else { channel.writeWithBatch(.called(id: id, result)) }
        case .unload(let key):
            contexts[key] = nil
        case .answer:
            break  // for a call that is over
        }
    }

    /// The call's result, and whether it asked the server anything.
    private func call(
        _ id: Int64, _ key: ScriptWorker.Key, hook: String, paramsJSON: String, on channel: inout HostChannel
    ) -> (ScriptWorker.Call, asked: Bool) {
        guard let context = contexts[key] else { return (ScriptWorker.Call(outcome: .notLoaded, logs: [], heapBytes: nil), false) }
        let started = Self.uptime
        var step = context.invoke(hook: hook, paramsJSON: paramsJSON)
        // A call that asked the server (a storage call, an HTTP request) goes on with its answers.
        // Waiting costs the host no CPU, so the rounds are counted: each costs the server a read.
        var rounds = 0
        let outcome: ScriptWorker.Outcome
        answering: while true {
            switch step {
            case .value(let json): outcome = .value(json)
            case .failed(let message): outcome = .failed(message)
            case .timedOut: outcome = .timedOut
            case .asking(let questions):
                rounds += 1
                guard rounds <= Self.maxQuestionRounds else {
                    context.abandonWaitingCall()
                    outcome = .failed("asked the server more than \(Self.maxQuestionRounds) times in one call")
                    break answering
                }
                channel.write(.asked(id: id, json: questions))
                guard let answers = channel.answers(for: id) else { exit(0) }
                step = context.resume(answersJSON: answers)
                continue answering
            }
            break answering
        }
        let finished = Self.uptime
        if case .value(let json) = outcome, json.utf8.count > Self.maxResultBytes {
            let failure = ScriptWorker.Outcome.failed("the result is \(json.utf8.count) bytes of JSON, more than \(Self.maxResultBytes)")
            return (ScriptWorker.Call(outcome: failure, logs: [], heapBytes: nil), rounds > 0)
        }
        let slow = finished - started > Self.slowCallThreshold
        let resident = memory.resident
        let measured = slow || finished - context.lastHeapCheck.uptime > Self.heapCheckInterval
            || resident - context.lastHeapCheck.resident > Self.heapCheckGrowth
        if measured { context.lastHeapCheck = (finished, resident) }
        let call = ScriptWorker.Call(
            outcome: outcome,
            logs: context.hasLogs ? context.drainLogs().map { (level: $0.0, text: $0.1) } : [],
            heapBytes: measured ? context.heapSize(collectingYoungFirst: slow) : nil
        )
        return (call, rounds > 0)
    }

    private static var uptime: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
