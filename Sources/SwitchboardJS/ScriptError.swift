/// A script that would not load, or a call that failed, with where it happened.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, as compilers print it.
    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
