extension ServesMetrics {
    /// `service`'s pushes by what became of them (`["sent": 2, "removed_token": 1]`, no
    /// zeros) once they add up to `devices`, or as they stand after `timeout`.
    ///
    /// Every device's push is counted once in `switchboard_push_<service>_total{outcome}`,
    /// after its last answer (`DevicePushDelivery`; a push waiting to be tried again is not
    /// counted yet). So once the counts add up to the devices a test pushed to, no request for
    /// those pushes is still to come, and a test can check that one did not come.
    func pushOutcomes(_ service: String, addingUpTo devices: Int, timeout: Duration = .seconds(10)) async throws -> [String: Int] {
        try await scrape(until: { $0.values.reduce(0, +) >= devices }, timeout: timeout) {
            let prefix = "switchboard_push_\(service)_total{outcome=\""
            var outcomes: [String: Int] = [:]
            for line in try await metrics().split(separator: "\n") where line.hasPrefix(prefix) {
                // `sent"} 2`
                let labelled = line.dropFirst(prefix.count)
                guard let outcome = labelled.split(separator: "\"").first, let count = labelled.split(separator: " ").last.flatMap({ Int($0) }) else { continue }
                if count > 0 { outcomes[String(outcome)] = count }
            }
            return outcomes
        }
    }
}
