import SwitchboardJSON

extension Exporter {
    /// Walks each class of the run with `/1.1/scan/classes`, by objectId, into
    /// `classes/<Class>.jsonl`, a page at a time. Taken up again, a walk goes on past the
    /// last objectId written (a scan's cursor lasts ten minutes on LeanCloud, and this one
    /// died with the process); in a later run it asks only for objects updated since (a
    /// class named for the first time whole).
    func exportClasses() async throws {
        let classes = folder.manifest.state.classes
        for (index, pass) in classes.enumerated() where !pass.done {
            var base: [String: JSONValue] = [:]
            if let since = pass.since { base["updatedAt"] = ["$gte": ["__type": "Date", "iso": .string(since)]] }
            if let last = pass.last { base["objectId"] = ["$gt": .string(last)] }
            let file = "classes/\(pass.name).jsonl"
            var cursor: String?
            repeat {
                passStatus = "classes \(index + 1)/\(classes.count) · \(pass.name) \(ExportProgress.count(folder.manifest.state.classes[index].count))"
                var query = [("limit", String(settings.pageSize)), ("where", JSONValue.object(base).jsonString)]
                if let cursor { query.append(("cursor", cursor)) }
                let answer = try await client.get(["1.1", "scan", "classes", pass.name], query)
                guard let results = answer["results"]?.arrayValue else { throw unexpected("a scan of \(pass.name)", answer) }
                try record(results.map(\.jsonString), to: file)
                cursor = answer["cursor"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                var state = folder.manifest.state.classes[index]
                state.count += results.count
                state.last = results.last?["objectId"]?.stringValue ?? state.last
                state.done = cursor == nil
                folder.manifest.state.classes[index] = state
                try commit()
            } while cursor != nil
        }
    }
}
