import SwitchboardJSON

/// Answers the questions a running call asked (`[{id, kind, request}]`) with
/// `[{id, result}]` or `[{id, error}]`, all of one round at once: a script that starts
/// several requests before awaiting them has them run side by side.
struct ScriptQuestions: Sendable {
    let services: ScriptServices
    /// More HTTP requests than this in one round are refused: each holds a connection.
    static let maxRequestsPerRound = 8

    /// - Parameter remaining: what is left of the call's budget; HTTP requests end by then.
    func answer(_ json: String, remaining: Duration) async -> String {
        let questions = (try? JSONValue(parsing: json))?.arrayValue ?? []
        var requests = 0
        let answers = await withTaskGroup(of: JSONValue.self) { group in
            for question in questions {
                guard let id = question["id"] else { continue }
                let kind = question["kind"]?.stringValue
                if kind == "http" { requests += 1 }
                let tooMany = kind == "http" && requests > Self.maxRequestsPerRound
                group.addTask {
                    do {
                        if tooMany { throw Refusal(description: "more than \(Self.maxRequestsPerRound) HTTP requests at once") }
                        return .object(["id": id, "result": try await answer(kind, question["request"] ?? .null, remaining: remaining)])
                    } catch {
                        return .object(["id": id, "error": .string("\(error)")])
                    }
                }
            }
            return await group.reduce(into: [JSONValue]()) { $0.append($1) }
        }
        return JSONValue.array(answers).jsonString
    }

    private struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    private func answer(_ kind: String?, _ request: JSONValue, remaining: Duration) async throws -> JSONValue {
        switch kind {
        case "conversations":
            guard let conversations = services.conversations else { throw Refusal(description: "_Conversation is not available here") }
            let found = try await conversations.conversations(
                where: request["where"] ?? .object([:]), order: request["order"]?.stringValue,
                skip: Int(request["skip"]?.int64Value ?? 0), limit: Int(request["limit"]?.int64Value ?? 100)
            )
            return .array(found)
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
