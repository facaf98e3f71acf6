import SwitchboardCore
import SwitchboardJSON

/// LeanCloud's `_Installation` as its SDKs save it (with the app key): a device and the
/// channels it is subscribed to. The realtime SDKs subscribe a device to a channel named
/// after each client id that logs in on it, which is how a member's offline pushes reach a
/// device that did not give a token at login (Android's, with `registrationId`).
enum InstallationRoutes {
    static let maxTokenBytes = 512
    static let maxChannels = 100

    static func routes(_ core: MessagingCore) -> [RESTRoute] {
        [
            RESTRoute(
                .post, "/1.1/installations", "Save a device for push; one with the same token or installationId is updated",
                body: [
                    .string("deviceType", required: true), .string("deviceToken"), .string("installationId"), .string("registrationId"),
                    .string("vendor"), .string("deviceProfile"), .strings("channels"),
                ],
                moreFields: true, appKeyAllowed: true
            ) { call in
                let saved = try await core.saveInstallation(try installation(from: call.body))
                let at = ISODate.string(milliseconds: saved.at)
                return saved.created ? ["objectId": .string(saved.objectID), "createdAt": .string(at)] : ["objectId": .string(saved.objectID), "updatedAt": .string(at)]
            },
            RESTRoute(
                .put, "/1.1/installations/{object_id}",
                "Change a device's tokens, vendor, badge or channels (an array, or __op AddUnique, Add or Remove)",
                body: [
                    .string("deviceToken"), .string("registrationId"), .string("vendor"), .string("deviceProfile"), .integer("badge"),
                    .stringOrObject("channels"),
                ],
                moreFields: true, appKeyAllowed: true
            ) { call in
                let badge = try call.body["badge"].map { value -> Int in
                    guard let badge = value.int64Value, badge >= 0 else { throw RESTFailure(message: "badge is a number, 0 or more") }
                    return Int(badge)
                }
                let change = InstallationChange(
                    deviceToken: try token(call.body, "deviceToken"), registrationID: try token(call.body, "registrationId"),
                    vendor: call.body["vendor"]?.stringValue, deviceProfile: call.body["deviceProfile"]?.stringValue,
                    badge: badge, channels: try channelChange(call.body["channels"])
                )
                guard let at = try await core.updateInstallation(objectID: call.path("object_id"), change) else {
                    throw notFound(call)
                }
                return ["updatedAt": .string(ISODate.string(milliseconds: at))]
            },
            RESTRoute(.get, "/1.1/installations/{object_id}", "A saved device with its channels and badge", appKeyAllowed: true) { call in
                guard let saved = try await core.installation(objectID: call.path("object_id")) else { throw notFound(call) }
                return saved.storageObject
            },
            RESTRoute(.delete, "/1.1/installations/{object_id}", "Forget a saved device (master key)") { call in
                guard try await core.deleteInstallation(objectID: call.path("object_id")) else { throw notFound(call) }
                return [:]
            },
        ]
    }

    private static func notFound(_ call: RESTCall) -> RESTNotFound {
        RESTNotFound(message: "Could not find object by id '\(call.path("object_id"))' for class '_Installation'.")
    }

    private static func installation(from body: [String: JSONValue]) throws -> Installation {
        guard let type = body["deviceType"]?.stringValue.flatMap(Installation.DeviceType.init(rawValue:)) else {
            throw RESTFailure(message: "deviceType must be ios or android")
        }
        let installation = Installation(
            deviceType: type, deviceToken: try token(body, "deviceToken"), installationID: try token(body, "installationId"),
            registrationID: try token(body, "registrationId"), vendor: body["vendor"]?.stringValue,
            deviceProfile: body["deviceProfile"]?.stringValue, channels: try channels(body["channels"] ?? .array([]))
        )
        switch type {
        case .ios where installation.deviceToken == nil:
            throw RESTFailure(message: "an ios installation needs its deviceToken")
        case .android where installation.installationID == nil && installation.registrationID == nil:
            throw RESTFailure(message: "an android installation needs its installationId or registrationId")
        default:
            return installation
        }
    }

    private static func token(_ body: [String: JSONValue], _ name: String) throws -> String? {
        guard let value = body[name] else { return nil }
        guard let token = value.stringValue, !token.isEmpty, token.utf8.count <= maxTokenBytes else {
            throw RESTFailure(message: "\(name) is a string of 1 to \(maxTokenBytes) bytes")
        }
        return token
    }

    private static func channelChange(_ value: JSONValue?) throws -> Installation.ChannelChange? {
        guard let value else { return nil }
        guard case .object(let operation) = value else { return .set(try channels(value)) }
        let objects = try channels(operation["objects"] ?? .null)
        switch operation["__op"]?.stringValue {
        case "AddUnique", "Add": return .add(objects)
        case "Remove": return .remove(objects)
        case let other: throw RESTFailure(message: "channels: __op \(other ?? "(none)") is not AddUnique, Add or Remove")
        }
    }

    private static func channels(_ value: JSONValue) throws -> [String] {
        guard let array = value.arrayValue, array.count <= maxChannels else {
            throw RESTFailure(message: "channels is an array of at most \(maxChannels) strings")
        }
        return try array.map { element in
            guard let channel = element.stringValue, !channel.isEmpty, channel.utf8.count <= 256 else {
                throw RESTFailure(message: "channels are strings of 1 to 256 bytes")
            }
            return channel
        }
    }
}

/// An object the REST API does not have (LeanCloud's code 101, HTTP 404).
struct RESTNotFound: Error {
    let message: String
}
