/// What a store did with a batch an import handed it: how many items it stored new, how
/// many replaced an older version, how many it found already there (the same version or a
/// newer one), and the items it left out or changed, each by its place in the batch and why.
public struct ImportOutcome: Sendable, Equatable {
    public struct Note: Sendable, Equatable {
        /// The item's index in the batch.
        public var index: Int
        public var reason: String

        public init(index: Int, reason: String) {
            self.index = index
            self.reason = reason
        }
    }

    public var stored = 0
    /// Of `stored`, those that took the place of an older version.
    public var replaced = 0
    public var alreadyThere = 0
    /// Items not stored, and why.
    public var skipped: [Note] = []
    /// Items stored otherwise than given, and how (a unique key another conversation holds).
    public var notes: [Note] = []

    public init(stored: Int = 0, replaced: Int = 0, alreadyThere: Int = 0, skipped: [Note] = [], notes: [Note] = []) {
        self.stored = stored
        self.replaced = replaced
        self.alreadyThere = alreadyThere
        self.skipped = skipped
        self.notes = notes
    }

    public mutating func skip(_ index: Int, _ reason: String) {
        skipped.append(Note(index: index, reason: reason))
    }
}
