import SwitchboardWire

extension TestClient {
    /// Every command matching `matches` that the server queued for this connection before it
    /// handled an echo sent now, removed from the inbox. The server handles one connection's
    /// commands one at a time and writes its frames in the order queued, so once the echo's
    /// reply is here, so is whatever came before it (a login's catch-up, say): what is missing
    /// was not sent. A test that something did not arrive asks this rather than wait a while.
    func takeSentSoFar(where matches: @Sendable (GenericCommand) -> Bool) async throws -> [GenericCommand] {
        try await request(.echo)
        return takeReceived(where: matches)
    }
}
