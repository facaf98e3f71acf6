import SwitchboardCore

/// How both stores' `pushDevices` address an installed device: one whose `vendor` is a push
/// service's (`PushDevice.Service.byVendor`) is reached by its registration id, once it has
/// one; until then it goes by its other tokens, as a device of no known vendor.
enum PushDeviceColumns {
    private static let vendors = PushDevice.Service.byVendor.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
    /// The registration id of a device a vendor's service reaches, else NULL.
    static let vendorToken = "CASE WHEN i.vendor IN (\(vendors)) THEN i.registration_id END"
    /// The installation's vendor, NULL while a known vendor has given it no registration id.
    static let vendor = "CASE WHEN i.vendor IN (\(vendors)) AND i.registration_id IS NULL THEN NULL ELSE i.vendor END"
    /// The installation id of an Android device no maker's service reaches, which the SDK's
    /// own connection does (`PushDevice.Service.longConnection`), else NULL.
    static let longConnectionToken =
        "CASE WHEN i.device_type = 'android' AND COALESCE(\(vendor), '\(PushDevice.longConnectionVendor)') = '\(PushDevice.longConnectionVendor)' THEN i.installation_id END"
}
