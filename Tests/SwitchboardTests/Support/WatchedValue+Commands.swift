import SwitchboardWire

/// A client's inbox: the commands received and not yet taken by the test.
extension WatchedValue where Value == [GenericCommand] {
    /// Takes the first command that matches, waiting for one to come; nil after `timeout`.
    func takeFirst(within timeout: Duration, where matches: @escaping @Sendable (GenericCommand) -> Bool) async -> GenericCommand? {
        await wait(timeout: timeout) { inbox in inbox.firstIndex(where: matches).map { inbox.remove(at: $0) } }
    }

    /// Takes every command received so far that matches, without waiting.
    func takeAll(where matches: (GenericCommand) -> Bool) -> [GenericCommand] {
        update { inbox in
            let taken = inbox.filter(matches)
            inbox.removeAll(where: matches)
            return taken
        }
    }
}
