/// What the server asks of a script host. Hosts answer loads and calls, in the order asked.
enum HostRequest {
    case load(id: Int64, key: ScriptWorker.Key, file: String, source: ScriptContext.Source, budgetNanoseconds: Int64, envJSON: String)
    case setBudget(key: ScriptWorker.Key, budgetNanoseconds: Int64)
    case invoke(id: Int64, key: ScriptWorker.Key, hook: String, paramsJSON: String)
    case unload(key: ScriptWorker.Key)
    /// The server's answers (JSON) to what call `id` asked for.
    case answer(id: Int64, json: String)

    /// Answers go to a call that waits for them, whatever else the host has to do.
    var isAnswer: Bool {
        if case .answer = self { return true }
        return false
    }

    var encoded: [UInt8] {
        var writer = HostFrameWriter()
        switch self {
        case .load(let id, let key, let file, let source, let budget, let env):
            writer.byte(1)
            writer.integer(id)
            writer.key(key)
            writer.string(file)
            writer.source(source)
            writer.integer(budget)
            writer.string(env)
        case .setBudget(let key, let budget):
            writer.byte(2)
            writer.key(key)
            writer.integer(budget)
        case .invoke(let id, let key, let hook, let params):
            writer.byte(3)
            writer.integer(id)
            writer.key(key)
            writer.string(hook)
            writer.string(params)
        case .unload(let key):
            writer.byte(4)
            writer.key(key)
        case .answer(let id, let json):
            writer.byte(5)
            writer.integer(id)
            writer.string(json)
        }
        return writer.bytes
    }

    init(decoding bytes: [UInt8]) throws(HostFrame.Broken) {
        var reader = HostFrameReader(bytes)
        switch try reader.byte() {
        case 1:
            self = .load(
                id: try reader.integer(), key: try reader.key(), file: try reader.string(), source: try reader.source(),
                budgetNanoseconds: try reader.integer(), envJSON: try reader.string()
            )
        case 2: self = .setBudget(key: try reader.key(), budgetNanoseconds: try reader.integer())
        case 3: self = .invoke(id: try reader.integer(), key: try reader.key(), hook: try reader.string(), paramsJSON: try reader.string())
        case 4: self = .unload(key: try reader.key())
        case 5: self = .answer(id: try reader.integer(), json: try reader.string())
        default: throw HostFrame.Broken()
        }
    }
}

/// A script host's answer to a load or a call, or a running call's question to the server.
enum HostReply {
    case loaded(id: Int64, Result<ScriptWorker.LoadReport, ScriptError>)
    case called(id: Int64, ScriptWorker.Call)
    /// Call `id` waits for the server's answers to these questions (JSON: `[{id, kind, request}]`).
    case asked(id: Int64, json: String)
    /// The host has started (JavaScriptCore set up) and reads requests: the time and CPU it
    /// took to get here are not the first request's.
    case ready

    var id: Int64 {
        switch self {
        case .loaded(let id, _), .called(let id, _), .asked(let id, _): id
        case .ready: 0
        }
    }

    var encoded: [UInt8] {
        var writer = HostFrameWriter()
        switch self {
        case .loaded(let id, .success(let report)):
            writer.byte(1)
            writer.integer(id)
            writer.strings(report.hooks)
            writer.strings(report.inert)
            writer.string(report.optionsJSON)
            writer.logs(report.logs)
        case .loaded(let id, .failure(let error)):
            writer.byte(2)
            writer.integer(id)
            writer.string(error.file)
            writer.integer(Int64(error.line ?? -1))
            writer.string(error.message)
        case .called(let id, let call):
            writer.byte(3)
            writer.integer(id)
            switch call.outcome {
            case .value(let json): writer.byte(0); writer.string(json)
            case .failed(let message): writer.byte(1); writer.string(message)
            case .timedOut: writer.byte(2); writer.string("")
            case .notLoaded: writer.byte(3); writer.string("")
            case .exceededMemory: writer.byte(4); writer.string("")
            }
            writer.logs(call.logs)
            writer.integer(Int64(call.heapBytes ?? -1))
        case .asked(let id, let json):
            writer.byte(4)
            writer.integer(id)
            writer.string(json)
        case .ready:
            writer.byte(5)
        }
        return writer.bytes
    }

    init(decoding bytes: [UInt8]) throws(HostFrame.Broken) {
        var reader = HostFrameReader(bytes)
        switch try reader.byte() {
        case 1:
            let id = try reader.integer()
            let report = ScriptWorker.LoadReport(
                hooks: try reader.strings(), inert: try reader.strings(), optionsJSON: try reader.string(), logs: try reader.logs()
            )
            self = .loaded(id: id, .success(report))
        case 2:
            let id = try reader.integer()
            let file = try reader.string()
            let line = try reader.integer()
            self = .loaded(id: id, .failure(ScriptError(file: file, line: line < 0 ? nil : Int(line), message: try reader.string())))
        case 3:
            let id = try reader.integer()
            let kind = try reader.byte()
            let text = try reader.string()
            let outcome: ScriptWorker.Outcome
            switch kind {
            case 0: outcome = .value(text)
            case 1: outcome = .failed(text)
            case 2: outcome = .timedOut
            case 3: outcome = .notLoaded
            case 4: outcome = .exceededMemory
            default: throw HostFrame.Broken()
            }
            let logs = try reader.logs()
            let heap = try reader.integer()
            self = .called(id: id, ScriptWorker.Call(outcome: outcome, logs: logs, heapBytes: heap < 0 ? nil : Int(heap)))
        case 4:
            self = .asked(id: try reader.integer(), json: try reader.string())
        case 5:
            self = .ready
        default:
            throw HostFrame.Broken()
        }
    }
}

extension HostFrameWriter {
    fileprivate mutating func key(_ key: ScriptWorker.Key) {
        string(key.name)
        string(key.version)
    }

    fileprivate mutating func source(_ source: ScriptContext.Source) {
        switch source {
        case .file(let text):
            byte(0)
            string(text)
        case .project(let files, let entry):
            byte(1)
            string(entry)
            let paths = files.keys.sorted()
            strings(paths)
            strings(paths.map { files[$0]! })
        }
    }

    fileprivate mutating func logs(_ lines: [(level: String, text: String)]) {
        integer(Int64(lines.count))
        for line in lines {
            string(line.level)
            string(line.text)
        }
    }
}

extension HostFrameReader {
    fileprivate mutating func key() throws(HostFrame.Broken) -> ScriptWorker.Key {
        ScriptWorker.Key(name: try string(), version: try string())
    }

    fileprivate mutating func source() throws(HostFrame.Broken) -> ScriptContext.Source {
        switch try byte() {
        case 0: return .file(try string())
        case 1:
            let entry = try string()
            let paths = try strings()
            let texts = try strings()
            guard paths.count == texts.count else { throw HostFrame.Broken() }
            return .project(files: Dictionary(zip(paths, texts)) { first, _ in first }, entry: entry)
        default: throw HostFrame.Broken()
        }
    }

    fileprivate mutating func logs() throws(HostFrame.Broken) -> [(level: String, text: String)] {
        let count = try integer()
        guard count >= 0 else { throw HostFrame.Broken() }
        return try (0..<count).map { _ throws(HostFrame.Broken) in (level: try string(), text: try string()) }
    }
}
