import SwitchboardJSON

extension LocalAppData {
    /// The objects with the pointers at `path` (`author`, `post.author`; a pointer or an
    /// array of pointers) replaced by their objects, which keep `__type: "Pointer"` and
    /// `className` as LeanStorage's did. A pointer to nothing stays a pointer.
    func expand(_ objects: [JSONValue], path: ArraySlice<String>) async throws -> [JSONValue] {
        guard let field = path.first else { return objects }
        var wanted: [String: [String]] = [:]
        for object in objects {
            for pointer in Self.pointers(in: object[field]) where !(wanted[pointer.className]?.contains(pointer.id) ?? false) {
                wanted[pointer.className, default: []].append(pointer.id)
            }
        }
        var targets: [String: JSONValue] = [:]
        for (className, ids) in wanted.sorted(by: { $0.key < $1.key }) {
            var found: [JSONValue] = []
            // The IM classes' filter takes fewer values in one `where` than app classes' do.
            let chunkSize = IMClasses.names.contains(className) ? DocumentFilter.maxTerms : ObjectQuery.maxLimit
            for start in stride(from: 0, to: ids.count, by: chunkSize) {
                let chunk = Array(ids[start..<min(start + chunkSize, ids.count)])
                let query = ObjectQuery(className: className, whereDocument: ["objectId": ["$in": .strings(chunk)]], limit: ObjectQuery.maxLimit)
                found += try await find(query).results
            }
            for object in try await expand(found, path: path.dropFirst()) {
                guard case .object(var members) = object, let id = members["objectId"]?.stringValue else { continue }
                members["__type"] = "Pointer"
                members["className"] = .string(className)
                targets[className + ":" + id] = .object(members)
            }
        }
        guard !targets.isEmpty else { return objects }
        return objects.map { object in
            guard case .object(var members) = object, let value = members[field] else { return object }
            members[field] = Self.replacingPointers(in: value, with: targets)
            return .object(members)
        }
    }

    private static func pointers(in value: JSONValue?) -> [(className: String, id: String)] {
        switch value {
        case .array(let elements): elements.compactMap(pointer)
        case let value?: pointer(value).map { [$0] } ?? []
        case nil: []
        }
    }

    private static func pointer(_ value: JSONValue) -> (className: String, id: String)? {
        guard value["__type"]?.stringValue == "Pointer", let className = value["className"]?.stringValue,
              let id = value["objectId"]?.stringValue, (try? ClassNames.validate(className: className)) != nil
        else { return nil }
        return (className, id)
    }

    private static func replacingPointers(in value: JSONValue, with targets: [String: JSONValue]) -> JSONValue {
        if case .array(let elements) = value { return .array(elements.map { replacingPointers(in: $0, with: targets) }) }
        guard let (className, id) = pointer(value) else { return value }
        return targets[className + ":" + id] ?? value
    }
}
