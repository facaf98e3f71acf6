/// Finds every occurrence of many keywords in one pass over a text (Aho–Corasick over
/// Unicode scalars), optionally ignoring case, and masks them.
public struct KeywordMatcher: Sendable {
    private struct Node: Sendable {
        var next: [UInt32: Int32] = [:]
        var failure: Int32 = 0
        /// Length in scalars of the longest keyword ending here, 0 if none.
        var longest: Int32 = 0
    }

    public static let mask = "***"

    private var nodes = [Node()]
    public let ignoresCase: Bool
    public private(set) var keywordCount = 0

    public init(keywords: [String], ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
        for keyword in keywords {
            let scalars = Self.scalars(of: keyword, ignoresCase: ignoresCase)
            guard !scalars.isEmpty else { continue }
            var state: Int32 = 0
            for scalar in scalars {
                if let next = nodes[Int(state)].next[scalar] {
                    state = next
                } else {
                    nodes.append(Node())
                    let created = Int32(nodes.count - 1)
                    nodes[Int(state)].next[scalar] = created
                    state = created
                }
            }
            nodes[Int(state)].longest = max(nodes[Int(state)].longest, Int32(scalars.count))
            keywordCount += 1
        }
        linkFailures()
    }

    /// Whether any keyword occurs in the text.
    public func matches(_ text: String) -> Bool {
        !matchedRuns(in: Array(text.unicodeScalars), firstOnly: true).isEmpty
    }

    /// The text with each run of matched characters replaced by `***`, or nil when nothing matched.
    public func masked(_ text: String) -> String? {
        let original = Array(text.unicodeScalars)
        let covered = matchedRuns(in: original, firstOnly: false)
        guard !covered.isEmpty else { return nil }
        var result = String.UnicodeScalarView()
        var position = 0
        for range in covered {
            result.append(contentsOf: original[position..<range.lowerBound])
            result.append(contentsOf: Self.mask.unicodeScalars)
            position = range.upperBound
        }
        result.append(contentsOf: original[position...])
        return String(result)
    }

    /// The runs of scalars covered by matches, overlapping ones merged, in order.
    private func matchedRuns(in scalars: [Unicode.Scalar], firstOnly: Bool) -> [Range<Int>] {
        var covered: [Range<Int>] = []
        var state: Int32 = 0
        for (index, scalar) in scalars.enumerated() {
            let key = ignoresCase ? Self.folded(scalar) : scalar.value
            while state != 0, nodes[Int(state)].next[key] == nil {
                state = nodes[Int(state)].failure
            }
            state = nodes[Int(state)].next[key] ?? 0
            let length = Int(nodes[Int(state)].longest)
            guard length > 0 else { continue }
            let match = (index + 1 - length)..<(index + 1)
            if let last = covered.last, last.upperBound >= match.lowerBound {
                covered[covered.count - 1] = min(last.lowerBound, match.lowerBound)..<match.upperBound
            } else {
                covered.append(match)
            }
            if firstOnly { break }
        }
        return covered
    }

    /// Breadth first, so a node's failure link points at a node already linked.
    private mutating func linkFailures() {
        var queue: [Int32] = Array(nodes[0].next.values)
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for (scalar, child) in nodes[Int(state)].next {
                var fallback = nodes[Int(state)].failure
                while fallback != 0, nodes[Int(fallback)].next[scalar] == nil {
                    fallback = nodes[Int(fallback)].failure
                }
                let target = nodes[Int(fallback)].next[scalar] ?? 0
                nodes[Int(child)].failure = target == child ? 0 : target
                // A shorter keyword ending at the same place still counts.
                nodes[Int(child)].longest = max(nodes[Int(child)].longest, nodes[Int(nodes[Int(child)].failure)].longest)
                queue.append(child)
            }
        }
    }

    private static func scalars(of keyword: String, ignoresCase: Bool) -> [UInt32] {
        keyword.unicodeScalars.map { ignoresCase ? folded($0) : $0.value }
    }

    /// Simple case folding: the scalar's lowercase form when that is one scalar.
    private static func folded(_ scalar: Unicode.Scalar) -> UInt32 {
        // ASCII without the Unicode property tables, which cost more than the rest of the scan.
        if scalar.isASCII {
            return (65...90).contains(scalar.value) ? scalar.value + 32 : scalar.value
        }
        guard scalar.properties.changesWhenCaseFolded else { return scalar.value }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first!.value : scalar.value
    }
}
