extension PushNotice {
    /// The devices `takes` picks out, each once however many recipients share it (one phone,
    /// two accounts), with the recipient it came by; and the notice of the rest: every
    /// recipient with devices left, with those, or with no device at all (a provider may
    /// still reach them its own way).
    public func split(taking takes: (PushDevice) -> Bool) -> (taken: [(clientID: String, device: PushDevice)], rest: PushNotice) {
        var taken: [(clientID: String, device: PushDevice)] = []
        var seen: Set<PushDevice> = []
        var rest = self
        rest.recipients = []
        rest.devices = [:]
        for clientID in recipients {
            let devices = self.devices[clientID] ?? []
            let leftOver = devices.filter { !takes($0) }
            for device in devices where takes(device) && seen.insert(device).inserted {
                taken.append((clientID, device))
            }
            if !leftOver.isEmpty || devices.isEmpty {
                rest.recipients.append(clientID)
                if !leftOver.isEmpty { rest.devices[clientID] = leftOver }
            }
        }
        return (taken, rest)
    }
}
