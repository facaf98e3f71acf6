import Foundation
import SwitchboardJSON

/// What a push carries when neither a hook nor the sender chose, and the delivery hints
/// LeanCloud lets a payload carry.
public enum PushPayload {
    /// LeanCloud's default: an alert and a badge increment.
    public static let defaultTemplate = #"{"alert":"New message","badge":"Increment"}"#

    /// The template with `${convId}`, `${timestamp}` (seconds) and `${fromClientId}` filled
    /// in, as JSON-escaped text so that any client id is safe inside a string.
    static func fromTemplate(_ template: String, conversationID: String, timestamp: Int64, from: String) -> JSONValue {
        let filled = fill(template, conversationID: conversationID, timestamp: timestamp, from: from)
        return (try? JSONValue(parsing: filled)) ?? .object(["alert": .string(filled)])
    }

    private static func fill(_ template: String, conversationID: String, timestamp: Int64, from: String) -> String {
        [("${convId}", conversationID), ("${timestamp}", String(timestamp / 1000)), ("${fromClientId}", from)]
            .reduce(template) { text, placeholder in
                text.replacingOccurrences(of: placeholder.0, with: String(JSONValue.string(placeholder.1).jsonString.dropFirst().dropLast()))
            }
    }

    /// Whether the template, filled in, is a JSON object.
    public static func isValidTemplate(_ template: String) -> Bool {
        let filled = fill(template, conversationID: "c", timestamp: 0, from: "f")
        guard case .object? = try? JSONValue(parsing: filled) else { return false }
        return true
    }

    /// Takes `_profile` and `_apns_team_id` off the top level of a payload.
    static func splitHints(_ payload: JSONValue) -> (payload: JSONValue, profile: String?, apnsTeamID: String?) {
        guard case .object(var object) = payload else { return (payload, nil, nil) }
        let profile = object.removeValue(forKey: "_profile")?.stringValue
        let team = object.removeValue(forKey: "_apns_team_id")?.stringValue
        return (.object(object), profile, team)
    }
}
