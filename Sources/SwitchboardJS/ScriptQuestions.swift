import SwitchboardData
import SwitchboardJSON

/// Answers the questions a running call asked (`[{id, kind, request}]`) with
/// `[{id, result}]` or `[{id, error}]`, all of one round at once: a script that starts
/// several requests before awaiting them has them run side by side. A LeanStorage refusal
/// comes with its code (`[{id, error, code}]`), so that the script's error has it.
struct ScriptQuestions: Sendable {
    let services: ScriptServices
    /// More HTTP requests than this in one round are refused: each holds a connection.
    static let maxRequestsPerRound = 8
    /// More storage calls than this in one round are refused: a `saveAll` or `destroyAll`
    /// of a whole query page (1000 objects) fits.
    static let maxStorageCallsPerRound = ObjectQuery.maxLimit
    /// LeanStorage codes that mean this server cannot do what was asked (Switchboard does
    /// not support it, `_Conversation` is read-only, the budget or the query's cost ran
    /// out), rather than a store's answer such as 101 or 305: the script gets them with
    /// their code, and they are logged and counted as refused calls as well.
    static let refusedCodes: Set<Int> = [1, 119, 124]

    /// - Parameter remaining: what is left of the call's budget; HTTP requests and storage
    ///   calls end by then.
    func answer(_ json: String, remaining: Duration) async -> String {
        let questions = (try? JSONValue(parsing: json))?.arrayValue ?? []
        var asked: [String: Int] = [:]
        let answers = await withTaskGroup(of: JSONValue.self) { group in
            for question in questions {
                guard let id = question["id"] else { continue }
                let kind = question["kind"]?.stringValue
                let count = asked[kind ?? "", default: 0] + 1
                asked[kind ?? ""] = count
                let limit = Self.limit(of: kind)
                let tooMany = limit.map { count > $0.count } ?? false
                group.addTask {
                    do {
                        if tooMany, let limit { throw Refusal(description: "more than \(limit.count) \(limit.what) at once") }
                        return .object(["id": id, "result": try await answer(kind, question["request"] ?? .null, remaining: remaining)])
                    } catch {
                        return Self.failure(id: id, error)
                    }
                }
            }
            return await group.reduce(into: [JSONValue]()) { $0.append($1) }
        }
        return JSONValue.array(answers).jsonString
    }

    private static func limit(of kind: String?) -> (count: Int, what: String)? {
        switch kind {
        case "http": (maxRequestsPerRound, "HTTP requests")
        case "storage": (maxStorageCallsPerRound, "AV.Object and AV.Query calls")
        default: nil
        }
    }

    private static func failure(id: JSONValue, _ error: any Error) -> JSONValue {
        guard let error = error as? StorageError else { return .object(["id": id, "error": .string("\(error)")]) }
        var answer: [String: JSONValue] = ["id": id, "error": .string(error.message), "code": .int(Int64(error.code))]
        if refusedCodes.contains(error.code) { answer["refused"] = true }
        return .object(answer)
    }

    private struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    private func answer(_ kind: String?, _ request: JSONValue, remaining: Duration) async throws -> JSONValue {
        switch kind {
        case "storage":
            let call = ScriptStorageCall(request)
            guard let data = services.data else {
                throw Refusal(description: "\(call.className) is not available here: there is no app data store (LeanStorage classes) for hook scripts")
            }
            return try await call.run(on: data, within: remaining)
        case "http":
            guard let http = services.http else {
                throw Refusal(description: "outbound HTTP is off: list the hosts scripts may call in hooks.http.allow")
            }
            guard let outgoing = ScriptHTTPRequest(json: request) else { throw Refusal(description: "an HTTP request needs a url") }
            guard remaining > .zero else { throw Refusal(description: "the call's budget is spent; no time is left for \(outgoing.url)") }
            return try await http.perform(outgoing, within: remaining).json
        default:
            throw Refusal(description: "unknown question \(kind ?? "")")
        }
    }
}
