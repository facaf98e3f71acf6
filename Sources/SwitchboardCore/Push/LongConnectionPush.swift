import Foundation
import Metrics
import SwitchboardHooks
import SwitchboardJSON
import SwitchboardWire

/// Pushes to the Android devices no maker's service reaches, over the SDK's own connection
/// (`PushDevice.Service.longConnection`), and hands every other device to `next`.
///
/// A device gets its push as a `data` command on each connection that carries its
/// installation: those on this node at once, those on other nodes by a relay. One connected
/// nowhere gets nothing: LeanCloud made no offline push for such devices, whose chat shares
/// that connection (leancloud/docs `sdk/push/guide/android-mixpush.mdx`), and the app learns
/// of the message itself at its next login.
struct LongConnectionPush: PushGateway {
    /// `switchboard_push_long_connection_total{outcome}`, one per device.
    struct Counters: Sendable {
        /// Written to a connection on this node.
        var sent: Counter
        /// Not connected here, handed to the other nodes.
        var relayed: Counter
        /// Connected nowhere (one node alone).
        var notConnected: Counter
        /// Acknowledged by the device (`ack` with the push's id).
        var acknowledged: Counter

        init(metrics: HookMetrics) {
            func counter(_ outcome: String) -> Counter {
                metrics.makeCounter(
                    subsystem: "push", name: "long_connection", help: "Pushes over the Android SDK's own connection, one per device, by what became of them.",
                    labels: [("outcome", outcome)]
                )
            }
            sent = counter("sent")
            relayed = counter("relayed")
            notConnected = counter("not_connected")
            acknowledged = counter("acknowledged")
        }
    }

    let channels: PushChannels
    let link: any NodeLink
    let clustered: Bool
    let counters: Counters
    let next: any PushGateway

    func push(_ notice: PushNotice) async {
        // A member reached only over the connection is not the provider's to push to.
        let (taken, rest) = notice.split { $0.service == .longConnection }
        if !taken.isEmpty { send(notice, to: taken.map(\.device.token)) }
        if !rest.recipients.isEmpty { await next.push(rest) }
    }

    /// Sends `command` to the connections here that carry each of `installations`; returns
    /// the installations no connection here carries.
    func sendHere(_ command: GenericCommand, to installations: [String]) -> [String] {
        installations.filter { installationID in
            guard channels.send(command, to: installationID) else { return true }
            counters.sent.increment()
            return false
        }
    }

    private func send(_ notice: PushNotice, to installations: [String]) {
        let command = Self.command(for: notice)
        let elsewhere = sendHere(command, to: installations)
        guard !elsewhere.isEmpty else { return }
        if clustered {
            counters.relayed.increment(by: Int64(elsewhere.count))
            link.publish(.pushData(command: (try? command.serializedBytes()) ?? Data(), installations: elsewhere))
        } else {
            counters.notConnected.increment(by: Int64(elsewhere.count))
        }
    }

    /// The `data` command the Android SDK shows as a notification: the push's id, to
    /// acknowledge it by, and LeanCloud's push data for Android as a JSON object
    /// (java-unified-sdk `LCConnectionManager.java` routes `data` to its push listener, which
    /// reads `ids` and each `msg`'s `data`).
    static func command(for notice: PushNotice) -> GenericCommand {
        var message = JsonObjectMessage()
        message.data = JSONValue.object(PlatformPushData.data(for: "android", in: notice.payload)).jsonString
        var command = GenericCommand()
        command.cmd = .data
        command.service = RealtimeService.push
        command.dataMessage.ids = [notice.messageID]
        command.dataMessage.msg = [message]
        return command
    }
}
