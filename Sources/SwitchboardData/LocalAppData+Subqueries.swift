import SwitchboardJSON

extension LocalAppData {
    /// Subqueries nest at most this deep.
    static let maxSubqueryDepth = 3

    /// The `where` with each `$inQuery`/`$notInQuery` (pointers to the subquery's objects)
    /// and `$select`/`$dontSelect` (a key's values in the subquery's objects) replaced by
    /// the `$in`/`$nin` list it stands for. A subquery reads at most its `limit` objects,
    /// 1000 when it gives none (LeanStorage's default was 100).
    func resolvingSubqueries(_ document: JSONValue, depth: Int) async throws -> JSONValue {
        guard case .object(let members) = document else { return document }
        var resolved: [String: JSONValue] = [:]
        for (key, value) in members {
            if key == "$and" || key == "$or", let parts = value.arrayValue {
                var resolvedParts: [JSONValue] = []
                for part in parts { resolvedParts.append(try await resolvingSubqueries(part, depth: depth)) }
                resolved[key] = .array(resolvedParts)
            } else if case .object(var operators) = value {
                for name in ["$inQuery", "$notInQuery", "$select", "$dontSelect"] {
                    guard let subquery = operators.removeValue(forKey: name) else { continue }
                    guard depth < Self.maxSubqueryDepth else { throw StorageError.invalidQuery("subqueries nest at most \(Self.maxSubqueryDepth) deep") }
                    let values = try await subqueryValues(name, subquery, depth: depth + 1)
                    let target = name == "$inQuery" || name == "$select" ? "$in" : "$nin"
                    guard operators[target] == nil else { throw StorageError.invalidQuery("\(key) has both \(target) and \(name)") }
                    operators[target] = .array(values)
                }
                resolved[key] = .object(operators)
            } else {
                resolved[key] = value
            }
        }
        return .object(resolved)
    }

    private func subqueryValues(_ name: String, _ subquery: JSONValue, depth: Int) async throws -> [JSONValue] {
        let selecting = name == "$select" || name == "$dontSelect"
        let description = selecting ? subquery["query"] : subquery
        guard let parameters = description?.objectValue, let className = parameters["className"]?.stringValue else {
            throw StorageError.invalidQuery("\(name) needs a className and a where")
        }
        var query = try ObjectQuery(className: className, parameters: parameters)
        if parameters["limit"] == nil { query.limit = ObjectQuery.maxLimit }
        query.whereDocument = try await resolvingSubqueries(query.whereDocument, depth: depth)
        query.count = false
        let objects = try await find(query).results
        if selecting {
            guard let key = subquery["key"]?.stringValue else { throw StorageError.invalidQuery("\(name) needs a key") }
            return objects.compactMap { $0[key] }
        }
        return objects.compactMap { object in
            object["objectId"].map { ["__type": "Pointer", "className": .string(className), "objectId": $0] }
        }
    }
}
