/// Values of `GenericCommand.service`: which of LeanCloud's services on the shared socket a
/// command belongs to. The Apple SDKs hand a command the server pushes (one without `i`) to
/// their IM clients only when it says `instantMessaging` (swift-sdk `RTMConnection.swift`,
/// objc-sdk `LCRTMConnection.m`); the Android SDK takes `loggedin` for its push channel only
/// when it says `push`, present on the wire (java-unified-sdk `LCConnectionManager.java`).
public enum RealtimeService {
    public static let push: Int32 = 0
    public static let liveQuery: Int32 = 1
    public static let instantMessaging: Int32 = 2
}
