/// A regular expression as LeanCloud's queries send them (`$regex` with `$options` `i`, `m`,
/// `s`, `x`), matched without backtracking: every position of the text is looked at once with
/// all the pattern's states at a time (a Thompson NFA), so no pattern a client sends can
/// make a query slow. Supported: literals, `.`, `[...]` sets with ranges and negation, `\d \w
/// \s` and their negations, escapes, `\Q...\E` quoting (the SDK's `contains`, `startsWith`,
/// `endsWith`), `^ $`, groups `(...)` and `(?:...)`, `|`, and `* + ? {n} {n,} {n,m}` (lazy
/// forms too). Back-references and look-arounds are refused.
public struct LinearRegex: Sendable {
    public struct Unsupported: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Instructions a compiled pattern may hold: the cost of a match is this times the text.
    public static let maxProgram = 1000

    private let program: [Instruction]
    private let ignoreCase: Bool
    private let multiline: Bool
    private let dotAll: Bool

    public init(_ pattern: String, options: String = "") throws(Unsupported) {
        for option in options where !"imsux".contains(option) {
            throw Unsupported(description: "unsupported regular expression option \(option)")
        }
        ignoreCase = options.contains("i")
        multiline = options.contains("m")
        dotAll = options.contains("s")
        var parser = Parser(Array(pattern.unicodeScalars), extended: options.contains("x"))
        let node = try parser.parse()
        var program: [Instruction] = []
        try Self.compile(node, into: &program)
        program.append(.match)
        self.program = program
    }

    public func matches(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var seen = [Int](repeating: -1, count: program.count)
        var current: [Int] = []
        if add(0, at: 0, in: scalars, into: &current, seen: &seen) { return true }
        for position in scalars.indices {
            var next: [Int] = []
            for pc in current {
                guard case .consume(let atom) = program[pc], accepts(atom, scalars[position]) else { continue }
                if add(pc + 1, at: position + 1, in: scalars, into: &next, seen: &seen) { return true }
            }
            // Unanchored: a match may also start at the next position.
            if add(0, at: position + 1, in: scalars, into: &next, seen: &seen) { return true }
            current = next
        }
        return false
    }

    // MARK: matching

    /// Follows jumps, splits and assertions from `start`; queues the states that consume.
    /// `seen` holds the position each state was last queued at, so each is queued once.
    private func add(_ start: Int, at position: Int, in text: [Unicode.Scalar], into list: inout [Int], seen: inout [Int]) -> Bool {
        var stack = [start]
        while let pc = stack.popLast() {
            guard seen[pc] != position else { continue }
            seen[pc] = position
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second): stack.append(contentsOf: [second, first])
            case .lineStart:
                if position == 0 || (multiline && text[position - 1] == "\n") { stack.append(pc + 1) }
            case .lineEnd:
                if position == text.count || (multiline && text[position] == "\n") { stack.append(pc + 1) }
            case .consume: list.append(pc)
            }
        }
        return false
    }

    private func accepts(_ atom: Atom, _ scalar: Unicode.Scalar) -> Bool {
        if atom.accepts(scalar, dotAll: dotAll) { return true }
        guard ignoreCase else { return false }
        for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
            if let other = Self.single(mapping), other != scalar, atom.accepts(other, dotAll: dotAll) { return true }
        }
        return false
    }

    private static func single(_ text: String) -> Unicode.Scalar? {
        let scalars = text.unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }

    // MARK: compiling

    private enum Instruction: Sendable {
        case consume(Atom)
        case split(Int, Int)
        case jump(Int)
        case lineStart
        case lineEnd
        case match
    }

    private static func compile(_ node: Node, into program: inout [Instruction]) throws(Unsupported) {
        guard program.count < maxProgram else {
            throw Unsupported(description: "the regular expression is too long (at most \(maxProgram) steps)")
        }
        switch node {
        case .atom(let atom): program.append(.consume(atom))
        case .lineStart: program.append(.lineStart)
        case .lineEnd: program.append(.lineEnd)
        case .sequence(let parts):
            for part in parts { try compile(part, into: &program) }
        case .alternatives(let options):
            // split(a, next split) ... each branch jumps to the end.
            var jumps: [Int] = []
            for (index, option) in options.enumerated() {
                let split = program.count
                if index < options.count - 1 { program.append(.split(split + 1, -1)) }
                try compile(option, into: &program)
                if index < options.count - 1 {
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let body, let min, let max):
            for _ in 0..<min { try compile(body, into: &program) }
            if let max {
                // Each optional copy may be skipped to the end.
                var skips: [Int] = []
                for _ in min..<max {
                    skips.append(program.count)
                    program.append(.split(program.count + 1, -1))
                    try compile(body, into: &program)
                }
                for skip in skips { program[skip] = .split(skip + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, -1))
                try compile(body, into: &program)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }

    // MARK: parsing

    fileprivate indirect enum Node {
        case atom(Atom)
        case lineStart
        case lineEnd
        case sequence([Node])
        case alternatives([Node])
        case repetition(Node, min: Int, max: Int?)
    }

    fileprivate struct Atom: Sendable {
        enum Kind: Sendable {
            case any
            case scalar(Unicode.Scalar)
            case set(ranges: [ClosedRange<Unicode.Scalar>], negated: Bool)
        }

        var kind: Kind

        func accepts(_ scalar: Unicode.Scalar, dotAll: Bool) -> Bool {
            switch kind {
            case .any: dotAll || !(scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}")
            case .scalar(let expected): scalar == expected
            case .set(let ranges, let negated): ranges.contains { $0.contains(scalar) } != negated
            }
        }
    }

    fileprivate struct Parser {
        let pattern: [Unicode.Scalar]
        /// `x`: blanks, and `#` to the end of the line, are not part of the pattern outside
        /// `[...]` and `\Q...\E`.
        let extended: Bool
        var index = 0

        init(_ pattern: [Unicode.Scalar], extended: Bool) {
            self.pattern = pattern
            self.extended = extended
        }

        private mutating func skipIgnored() {
            while extended, let scalar = peek {
                if scalar.properties.isWhitespace {
                    index += 1
                } else if scalar == "#" {
                    while let skipped = peek, skipped != "\n" { index += 1 }
                } else {
                    return
                }
            }
        }

        mutating func parse() throws(Unsupported) -> Node {
            let node = try alternatives()
            guard index == pattern.count else { throw Unsupported(description: "unbalanced ) in the regular expression") }
            return node
        }

        private var peek: Unicode.Scalar? { index < pattern.count ? pattern[index] : nil }

        private mutating func alternatives() throws(Unsupported) -> Node {
            var options = [try sequence()]
            while peek == "|" {
                index += 1
                options.append(try sequence())
            }
            return options.count == 1 ? options[0] : .alternatives(options)
        }

        private mutating func sequence() throws(Unsupported) -> Node {
            var parts: [Node] = []
            while true {
                skipIgnored()
                guard let scalar = peek, scalar != "|", scalar != ")" else { break }
                if scalar == "\\", index + 1 < pattern.count, pattern[index + 1] == "Q" {
                    index += 2
                    parts += quoted().map { .atom(Atom(kind: .scalar($0))) }
                    continue
                }
                var part = try single()
                while let quantifier = try quantifier() {
                    part = .repetition(part, min: quantifier.min, max: quantifier.max)
                }
                parts.append(part)
            }
            return .sequence(parts)
        }

        /// The text up to `\E` (or the end), taken literally.
        private mutating func quoted() -> [Unicode.Scalar] {
            var literal: [Unicode.Scalar] = []
            while index < pattern.count {
                if pattern[index] == "\\", index + 1 < pattern.count, pattern[index + 1] == "E" {
                    index += 2
                    return literal
                }
                literal.append(pattern[index])
                index += 1
            }
            return literal
        }

        private mutating func single() throws(Unsupported) -> Node {
            let scalar = pattern[index]
            index += 1
            switch scalar {
            case ".": return .atom(Atom(kind: .any))
            case "^": return .lineStart
            case "$": return .lineEnd
            case "(":
                if peek == "?" {
                    guard index + 1 < pattern.count, pattern[index + 1] == ":" else {
                        throw Unsupported(description: "look-arounds and inline options are not supported in regular expressions")
                    }
                    index += 2
                }
                let inner = try alternatives()
                guard peek == ")" else { throw Unsupported(description: "unbalanced ( in the regular expression") }
                index += 1
                return inner
            case "[": return .atom(try set())
            case "\\": return .atom(try escape(inSet: false))
            case "*", "+", "?", "{":
                throw Unsupported(description: "\(scalar) has nothing to repeat in the regular expression")
            default: return .atom(Atom(kind: .scalar(scalar)))
            }
        }

        private mutating func quantifier() throws(Unsupported) -> (min: Int, max: Int?)? {
            skipIgnored()
            guard let scalar = peek else { return nil }
            var bounds: (min: Int, max: Int?)
            switch scalar {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = counted() else { return nil }
                bounds = counted
            default: return nil
            }
            if scalar != "{" { index += 1 }
            if peek == "?" { index += 1 }  // lazy: the same for whether it matches
            if let max = bounds.max, max < bounds.min { throw Unsupported(description: "{\(bounds.min),\(max)} counts down") }
            guard bounds.min <= 100, (bounds.max ?? 0) <= 100 else { throw Unsupported(description: "repeat counts go up to 100") }
            return bounds
        }

        /// `{n}`, `{n,}`, `{n,m}`; anything else is a literal `{`.
        private mutating func counted() -> (min: Int, max: Int?)? {
            guard let close = pattern[index...].firstIndex(of: "}") else { return nil }
            let body = String(String.UnicodeScalarView(pattern[(index + 1)..<close]))
            let parts = body.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let min = Int(parts[0]) else { return nil }
            let max: Int?
            if parts.count == 1 {
                max = min
            } else if parts[1].isEmpty {
                max = nil
            } else if let upper = Int(parts[1]) {
                max = upper
            } else {
                return nil
            }
            index = close + 1
            return (min, max)
        }

        private mutating func set() throws(Unsupported) -> Atom {
            var negated = false
            if peek == "^" {
                negated = true
                index += 1
            }
            var ranges: [ClosedRange<Unicode.Scalar>] = []
            var first = true
            while let scalar = peek, scalar != "]" || first {
                first = false
                index += 1
                var low: Unicode.Scalar = scalar
                if scalar == "\\" {
                    let escaped = try escape(inSet: true)
                    guard case .scalar(let single) = escaped.kind else {
                        if case .set(let more, false) = escaped.kind { ranges += more; continue }
                        throw Unsupported(description: "negated classes inside [] are not supported")
                    }
                    low = single
                }
                if peek == "-", index + 1 < pattern.count, pattern[index + 1] != "]" {
                    index += 1
                    var high = pattern[index]
                    index += 1
                    if high == "\\" {
                        guard case .scalar(let single) = try escape(inSet: true).kind else {
                            throw Unsupported(description: "a class cannot end a range in []")
                        }
                        high = single
                    }
                    guard low <= high else { throw Unsupported(description: "a range in [] runs backwards") }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard peek == "]" else { throw Unsupported(description: "unbalanced [ in the regular expression") }
            index += 1
            return Atom(kind: .set(ranges: ranges, negated: negated))
        }

        private static let digits: [ClosedRange<Unicode.Scalar>] = ["0"..."9"]
        private static let word: [ClosedRange<Unicode.Scalar>] = ["a"..."z", "A"..."Z", "0"..."9", "_"..."_"]
        private static let space: [ClosedRange<Unicode.Scalar>] = [" "..." ", "\t"..."\r", "\u{A0}"..."\u{A0}", "\u{2028}"..."\u{2029}", "\u{FEFF}"..."\u{FEFF}"]

        private mutating func escape(inSet: Bool) throws(Unsupported) -> Atom {
            guard let scalar = peek else { throw Unsupported(description: "the regular expression ends with \\") }
            index += 1
            switch scalar {
            case "d": return Atom(kind: .set(ranges: Self.digits, negated: false))
            case "D": return Atom(kind: .set(ranges: Self.digits, negated: true))
            case "w": return Atom(kind: .set(ranges: Self.word, negated: false))
            case "W": return Atom(kind: .set(ranges: Self.word, negated: true))
            case "s": return Atom(kind: .set(ranges: Self.space, negated: false))
            case "S": return Atom(kind: .set(ranges: Self.space, negated: true))
            case "t": return Atom(kind: .scalar("\t"))
            case "n": return Atom(kind: .scalar("\n"))
            case "r": return Atom(kind: .scalar("\r"))
            case "f": return Atom(kind: .scalar("\u{C}"))
            case "v": return Atom(kind: .scalar("\u{B}"))
            case "0": return Atom(kind: .scalar("\0"))
            default:
                if scalar.properties.isAlphabetic || ("1"..."9").contains(scalar) {
                    throw Unsupported(description: "\\\(scalar) is not supported in regular expressions")
                }
                return Atom(kind: .scalar(scalar))
            }
        }
    }
}
