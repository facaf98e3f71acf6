import Foundation

extension ImportInput {
    /// The class an input's rows belong to, named by its file as LeanCloud's export names
    /// them: `Blacklist.jsonl`, `Blacklist.json`, and the export's parts `Blacklist.0.jsonl`,
    /// `Blacklist.1.jsonl`, are all Blacklist; the folders an archive puts them in do not
    /// matter, except that a file named for no class (the `part-00000` of older exports)
    /// takes its folder's name.
    var className: String {
        let components = path.split(separator: "/")
        guard let name = components.last else { return "" }
        if Self.isPartFile(name), components.count > 1 { return String(components[components.count - 2]) }
        return name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    /// Why the import leaves an input alone, if it does: a Relation's table (`_Join:<field>:<Class>`,
    /// the pairs of ids LeanStorage keeps for a Relation field), since Switchboard has no
    /// Relations.
    var notImported: String? {
        className.hasPrefix("_Join:") ? "a Relation's table; Switchboard has no Relations (keep an array of pointers instead)" : nil
    }
}
