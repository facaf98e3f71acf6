/// A module a script names that it cannot have: it loads as a stand-in, and a hook call
/// that uses it fails.
public struct MissingModule: Equatable, Sendable {
    public var module: String
    /// The file naming it (`folder/path` for a project's) and the line.
    public var file: String
    public var line: Int
    /// Why, as `ModuleTarget.unavailable` says.
    public var problem: String
}
