import SwitchboardJSON

/// One request's part of a walk through a class (`/1.1/scan/classes`), over app data's
/// documents or an IM class alike: pages read from a position until `limit` objects match,
/// the class has no more, or the request has read its share (a sparse match: the caller
/// goes on from where this stopped, with a page that may be short or empty).
enum ScanWalk {
    /// What one read gave: the objects with the position just past each, and where to read
    /// on from (nil when nothing is left).
    struct Page<Position> {
        var objects: [(json: JSONValue, position: Position)]
        var next: Position?
    }

    /// The matches, and the position to go on from (nil once the class is walked).
    /// `pageSize`: the rows `read` reads at most (`limit`, or more for a sparse match).
    static func run<Position>(
        from start: Position?, limit: Int, pageSize: Int, filter: DocumentFilter, read: (Position?) async throws -> Page<Position>
    ) async throws -> (results: [JSONValue], next: Position?) {
        var position = start
        var results: [JSONValue] = []
        for _ in 0..<max(LocalAppData.maxDocumentsRead / max(pageSize, 1), 1) {
            let page = try await read(position)
            for object in page.objects where filter.matches(object.json) {
                results.append(object.json)
                if results.count == limit { return (results, object.position) }
            }
            guard let next = page.next else { return (results, nil) }
            position = next
        }
        return (results, position)
    }

    /// A scan's `limit`: 0 or less is the default page, past 1000 is 1000.
    static func limit(_ asked: Int) -> Int {
        asked <= 0 ? ObjectQuery.defaultLimit : min(asked, ObjectQuery.maxLimit)
    }

    /// The object id a walk in object id order may start past: a `where` that holds
    /// `objectId` `$gt` an id (at the top level or in `$and`) matches nothing up to it, one
    /// with `$gte` nothing up to that id less its last character (every id from it on comes
    /// after that). Resuming an export by `objectId` reads only what is left.
    static func objectIDFloor(_ whereDocument: JSONValue) -> String? {
        let parts = [whereDocument] + (whereDocument["$and"]?.arrayValue ?? [])
        return parts.compactMap { part -> String? in
            guard let condition = part["objectId"]?.objectValue else { return nil }
            let above = condition["$gt"]?.stringValue
            let from = condition["$gte"]?.stringValue.map { String($0.dropLast()) }
            return [above, from].compactMap { $0 }.max()
        }.max()
    }
}
