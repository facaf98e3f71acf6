import SwitchboardData
import SwitchboardJSON

/// `POST /1.1/batch`: `{"requests": [...]}` (see `StorageCall(batchElement:)`) run one after
/// another. The answer has one `{"success": ...}` or `{"error": {"code", "error"}}` for each,
/// in order; a failure does not stop the rest, as on LeanCloud.
struct StorageBatch {
    let requests: [JSONValue]

    init(_ body: [String: JSONValue]) throws {
        guard let requests = body["requests"]?.arrayValue else { throw RESTFailure(message: "requests is required, an array of objects") }
        self.requests = requests
    }

    func run(on appData: any AppData) async -> JSONValue {
        var answers: [JSONValue] = []
        for request in requests {
            do {
                answers.append(["success": try await StorageCall(batchElement: request).run(on: appData).body])
            } catch {
                answers.append(["error": RESTResponse.Refusal(for: error).json])
            }
        }
        return .array(answers)
    }
}
