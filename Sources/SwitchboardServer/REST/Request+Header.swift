import Hummingbird

extension Request {
    /// The first value of a header, by its name in any case. (Hummingbird does not export
    /// the type that names headers, and LeanCloud's are not among the predefined ones.)
    func header(_ name: String) -> String? {
        let canonical = name.lowercased()
        return headers.first { $0.name.canonicalName == canonical }?.value
    }
}
