import SwitchboardWire

extension MessagingCore {
    /// Carries out here what another node relayed: sends it to the sessions this node
    /// holds of the clients it names.
    public func receive(_ relay: Relay) async {
        switch relay {
        case .delivery(let relayed):
            guard let command = try? SharedCommand(protobuf: Array(relayed.command)) else { return rejected(relay) }
            if let seq = relayed.seq { presence.messageStored(seq: seq) }
            delivery.deliverHere(command, relayed, except: nil)
        case .notice(let bytes, let recipients):
            guard let command = try? GenericCommand(serializedBytes: bytes) else { return rejected(relay) }
            context.sendHere(command, to: recipients)
        case .tagTaken(let clientID, let tag):
            await sessions.tagTakenElsewhere(clientID: clientID, tag: tag)
        case .kick(let clientID, let reason):
            await kickHere(clientID, reason: reason)
        }
    }

    private func rejected(_ relay: Relay) {
        context.logger.error("relayed command not decodable; dropped", metadata: ["relay": "\(relay)"])
    }
}
