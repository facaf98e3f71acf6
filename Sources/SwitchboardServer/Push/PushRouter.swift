import SwitchboardCore

/// Sends each offline recipient's devices to the service that reaches them: iOS devices to
/// APNs, Android devices on FCM to Firebase and those of the Chinese makers (Huawei, Honor,
/// Xiaomi, Meizu, OPPO, vivo) to the maker's, when the config sets those providers up; the
/// other devices, and recipients with no device at all, to `others` (the log or webhook
/// `provider`). A device two recipients share (one phone, two accounts) gets the push once.
struct PushRouter: PushGateway {
    let services: [PushDevice.Service: any PushGateway]
    let others: any PushGateway

    func push(_ notice: PushNotice) async {
        let (taken, rest) = notice.split { services[$0.service] != nil }
        var routed: [PushDevice.Service: PushNotice] = [:]
        for (clientID, device) in taken {
            routed[device.service, default: Self.emptied(notice)].add(device, of: clientID)
        }
        for (service, notice) in routed {
            await services[service]?.push(notice)
        }
        if !rest.recipients.isEmpty { await others.push(rest) }
    }

    private static func emptied(_ notice: PushNotice) -> PushNotice {
        var notice = notice
        notice.recipients = []
        notice.devices = [:]
        return notice
    }
}

private extension PushNotice {
    mutating func add(_ device: PushDevice, of clientID: String) {
        if devices[clientID] == nil { recipients.append(clientID) }
        devices[clientID, default: []].append(device)
    }
}
