import SwitchboardHooks

/// `_clientOnline` and `_clientOffline`.
struct ClientHooks: Sendable {
    let pipeline: HookPipeline
    let background: WorkQueue

    func online(_ clientID: String, session: Presence.Session, reconnect: Bool) async {
        await background.notify(pipeline, ClientOnlineNotification(
            peerId: clientID, sourceIP: session.connection.remoteAddress, tag: session.tag ?? "", reconnect: reconnect ? 1 : 0
        ))
    }

    func offline(_ clientID: String, session: Presence.Session, closeCode: ClientOfflineNotification.CloseCode, message: String) async {
        await background.notify(pipeline, ClientOfflineNotification(
            peerId: clientID, closeCode: closeCode, closeMsg: message, sourceIP: session.connection.remoteAddress, tag: session.tag ?? ""
        ))
    }
}
