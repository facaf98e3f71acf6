import Foundation
import SwitchboardWire

extension MessagingCore {
    /// Carries out here what another node relayed: sends it to the sessions this node
    /// holds of the clients it names.
    public func receive(_ relay: Relay) async {
        switch relay {
        case .delivery(let relayed):
            guard let command = try? SharedCommand(protobuf: Array(relayed.command)) else { return rejected(relay) }
            if let seq = relayed.seq { presence.messageStored(seq: seq) }
            delivery.deliverHere(command, relayed)
        case .notice(let bytes, let recipients):
            guard let command = try? GenericCommand(serializedBytes: bytes) else { return rejected(relay) }
            context.sendHere(command, to: recipients)
        case .tagTaken(let clientID, let tag, let loginOrder):
            await sessions.tagTakenElsewhere(clientID: clientID, tag: tag, loginOrder: loginOrder)
        case .kick(let clientID, let reason):
            await kickHere(clientID, reason: reason)
        case .pushData(let bytes, let installations):
            guard let command = try? GenericCommand(serializedBytes: bytes) else { return rejected(relay) }
            // Those this node does not hold are another node's.
            _ = pushChannelCommands.push.sendHere(command, to: installations)
        }
    }

    /// Sends the will message of a client whose node died (see `NodeLink.keepWill`), stamped
    /// now, as that node would have when the client's connection dropped.
    public func sendOrphanedWill(_ will: RelayedDelivery) {
        guard var command = try? GenericCommand(serializedBytes: will.command) else { return rejected(.delivery(will)) }
        command.directMessage.timestamp = context.clock.next()
        let shared = SharedCommand(command)
        var relayed = will
        relayed.command = Data(shared.protobuf)
        delivery.deliverHere(shared, relayed)
        context.link.publish(.delivery(relayed))
        context.logger.info("will message of a client on a node that is gone delivered", metadata: ["client": "\(will.from)"])
    }

    private func rejected(_ relay: Relay) {
        context.logger.error("relayed command not decodable; dropped", metadata: ["relay": "\(relay)"])
    }
}
