import PostgresNIO

extension PostgresClient {
    /// Starts `run()` in a task of its own and returns the task once it is on its way into
    /// `run()`. A client leases connections only while `run()` runs (PostgresNIO warns of a
    /// lease before it), and a task merely created has not started yet: the caller's first
    /// query would come first. Cancelling the task closes the client's connections.
    func runInBackground() async -> Task<Void, Never> {
        let (started, signalStarted) = AsyncStream.makeStream(of: Void.self)
        let running = Task {
            signalStarted.finish()
            await run()
        }
        for await _ in started {}
        return running
    }
}
