/// What the import did with one file, for its summary line.
struct ImportTally {
    var read = 0
    var stored = 0
    /// Of `stored`, those that replaced an older version.
    var replaced = 0
    var alreadyThere = 0
    /// Rows read that the store left out (their conversation is missing, say).
    var skipped = 0
    /// Rows that could not be read or made sense of.
    var unreadable = 0

    /// Whether something in the file did not come across.
    var lostSome: Bool { skipped > 0 || unreadable > 0 }

    func summary(of file: ImportPlan.File, dryRun: Bool) -> String {
        var line = "\(file.path): \(file.kind.label): \(read) read, "
        if dryRun {
            line += "nothing stored (dry run)"
        } else {
            line += "\(stored) stored" + (replaced > 0 ? " (\(replaced) replacing an older version)" : "") + ", \(alreadyThere) already there"
        }
        if skipped > 0 { line += ", \(skipped) skipped" }
        if unreadable > 0 { line += ", \(unreadable) unreadable" }
        return line
    }
}
