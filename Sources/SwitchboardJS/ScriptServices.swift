import SwitchboardJSON

/// What the server lets hook scripts read while they run: `_Conversation`, as
/// `new AV.Query('_Conversation')` asks for it. Read-only; answered within the call's budget.
public protocol ScriptServices: Sendable {
    /// Conversations matching a LeanCloud `where`, as LeanCloud's `_Conversation` objects.
    func conversations(where: JSONValue, order: String?, skip: Int, limit: Int) async throws -> [JSONValue]
}

/// Answers the questions a running call asked (`[{id, kind, request}]`) with
/// `[{id, result}]` or `[{id, error}]`.
struct ScriptQuestions {
    let services: (any ScriptServices)?

    func answer(_ json: String) async -> String {
        let questions = (try? JSONValue(parsing: json))?.arrayValue ?? []
        var answers: [JSONValue] = []
        for question in questions {
            guard let id = question["id"] else { continue }
            do {
                answers.append(.object(["id": id, "result": try await answer(question["kind"]?.stringValue, question["request"] ?? .null)]))
            } catch {
                answers.append(.object(["id": id, "error": .string("\(error)")]))
            }
        }
        return JSONValue.array(answers).jsonString
    }

    private struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    private func answer(_ kind: String?, _ request: JSONValue) async throws -> JSONValue {
        guard kind == "conversations" else { throw Refusal(description: "unknown question \(kind ?? "")") }
        guard let services else { throw Refusal(description: "_Conversation is not available here") }
        let found = try await services.conversations(
            where: request["where"] ?? .object([:]), order: request["order"]?.stringValue,
            skip: Int(request["skip"]?.int64Value ?? 0), limit: Int(request["limit"]?.int64Value ?? 100)
        )
        return .array(found)
    }
}
