import Hummingbird
import SwitchboardJSON

/// What a `RESTRoute` answers: its JSON body and, where LeanCloud sends one, a header
/// (`Location` for an object created). The status is the route's.
struct RESTReply: Sendable {
    var body: JSONValue
    var headers: HTTPFields = [:]
}
