/// A config file that parses but says something impossible, or something no setting knows.
public struct ConfigError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }

    /// A key no setting declares, with the known key at that place nearest to it.
    static func unknownKey(_ path: String, known: [String]) -> ConfigError {
        let key = String(path.split(separator: ".").last ?? "")
        let nearest = known.map { (name: $0, distance: editDistance(key.lowercased(), $0.lowercased())) }.min { $0.distance < $1.distance }
        guard let nearest, nearest.distance <= max(2, key.count / 3) else {
            return ConfigError("config: unknown key \(path)" + (known.isEmpty ? "" : " (known here: \(known.joined(separator: ", ")))"))
        }
        return ConfigError("config: unknown key \(path) (did you mean \(nearest.name)?)")
    }

    /// Levenshtein distance: the single-character insertions, deletions and substitutions
    /// that turn one into the other.
    private static func editDistance(_ one: String, _ other: String) -> Int {
        let other = Array(other)
        var previous = Array(0...other.count)
        for (index, character) in one.enumerated() {
            var current = [index + 1]
            for (otherIndex, otherCharacter) in other.enumerated() {
                current.append(min(previous[otherIndex + 1] + 1, current[otherIndex] + 1, previous[otherIndex] + (character == otherCharacter ? 0 : 1)))
            }
            previous = current
        }
        return previous[other.count]
    }
}
