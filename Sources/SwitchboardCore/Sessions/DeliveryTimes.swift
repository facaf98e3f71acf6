import Synchronization

/// When each message a device has not acknowledged was last sent to it from the store (by
/// its catch-up or a redelivery), so that a redelivery waits a full interval after either.
/// A message never sent from the store counts as delivered when it was sent (its timestamp):
/// live deliveries record nothing here, which keeps them free of bookkeeping.
///
/// In memory, on the node the device is connected to: forgotten when the device's last
/// session here ends and after a restart, when everything unacknowledged is due again anyway.
/// Forgetting an entry can only make a message due early (sent once more), never lost.
final class DeliveryTimes: Sendable {
    /// Entries kept for one device; a device that never acknowledges stops growing here.
    static let maxPerDevice = 10_000

    private let sent = Mutex<[DeviceAddress: [Int64: Int64]]>([:])

    /// When `message` was last sent to `device`.
    func lastDelivery(of message: Message, to device: DeviceAddress) -> Int64 {
        guard let seq = message.seq else { return message.timestamp }
        return sent.withLock { $0[device]?[seq] } ?? message.timestamp
    }

    func sent(_ seqs: [Int64], to device: DeviceAddress, at time: Int64) {
        guard !seqs.isEmpty else { return }
        sent.withLock { sent in
            var times = sent[device, default: [:]]
            if times.count + seqs.count > Self.maxPerDevice {
                // The oldest messages go first: they are the likeliest to be due already.
                for seq in times.keys.sorted().prefix(times.count + seqs.count - Self.maxPerDevice) { times[seq] = nil }
            }
            for seq in seqs { times[seq] = time }
            sent[device] = times
        }
    }

    func acknowledged(_ seqs: [Int64], by device: DeviceAddress) {
        guard !seqs.isEmpty else { return }
        sent.withLock { sent in
            guard var times = sent[device] else { return }
            for seq in seqs { times[seq] = nil }
            sent[device] = times.isEmpty ? nil : times
        }
    }

    func forget(_ device: DeviceAddress) {
        _ = sent.withLock { $0.removeValue(forKey: device) }
    }
}
