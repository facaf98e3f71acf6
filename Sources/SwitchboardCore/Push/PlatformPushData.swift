import SwitchboardJSON

/// LeanCloud's push data names what each platform gets: an `ios` or `android` object
/// replaces the data for that platform, and keys for other platforms' services never reach
/// a device. Data that is not an object is the alert.
public enum PlatformPushData {
    private static let platformKeys: Set<String> = ["ios", "android", "fcm", "mi", "hms", "mz", "vivo", "oppo", "hcm"]

    /// - Parameter platform: `ios` or `android`.
    public static func data(for platform: String, in payload: JSONValue) -> [String: JSONValue] {
        guard case .object(let data) = payload else { return ["alert": payload] }
        if case .object(let own)? = data[platform] { return own }
        return data.filter { !platformKeys.contains($0.key) }
    }
}
