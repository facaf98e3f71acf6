import SwitchboardJSON

extension DocumentFilter {
    /// A LeanStorage `where` as a filter; one it cannot run is refused with 102.
    static func storage(_ whereDocument: JSONValue, maxTerms: Int = DocumentFilter.maxTerms) throws(StorageError) -> DocumentFilter {
        do {
            return try DocumentFilter(whereDocument, maxTerms: maxTerms)
        } catch {
            throw .invalidQuery(error.description)
        }
    }
}
