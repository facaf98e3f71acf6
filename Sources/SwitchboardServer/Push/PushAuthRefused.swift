/// A vendor's auth endpoint did not hand out a token: its status and what it said.
struct PushAuthRefused: Error, CustomStringConvertible {
    let service: String
    let status: Int
    let body: String

    var description: String { "\(service)'s auth endpoint answered HTTP \(status): \(body.prefix(500))" }
}
