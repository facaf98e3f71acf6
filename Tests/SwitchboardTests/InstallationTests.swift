import Foundation
import SwitchboardCore
import SwitchboardJSON
import SwitchboardWire
import Testing

/// `/1.1/installations`: LeanCloud's `_Installation`, saved and read with the app key,
/// deleted with the master key.
@Suite struct InstallationTests {
    @Test func aDeviceIsSavedOnceAndFoundAgainByItsToken() async throws {
        let server = try await TestServer.start()
        let key = server.config.appKey
        let (created, first) = try await server.rest("POST", "/1.1/installations", body: ["deviceType": "android", "installationId": "i-1"], key: key)
        #expect(created == 200)
        let objectID = try #require(first["objectId"] as? String)
        #expect(objectID.count == 24 && first["createdAt"] != nil)
        let (again, second) = try await server.rest(
            "POST", "/1.1/installations", body: ["deviceType": "android", "installationId": "i-1", "registrationId": "fcm:reg-1", "vendor": "fcm"], key: key
        )
        #expect(again == 200 && second["objectId"] as? String == objectID && second["updatedAt"] != nil)
        try await server.stop()
    }

    @Test func aDeviceIsReadBackAndDeletedWithTheMasterKey() async throws {
        let server = try await TestServer.start()
        let key = server.config.appKey
        let (_, saved) = try await server.rest(
            "POST", "/1.1/installations",
            body: ["deviceType": "android", "installationId": "i-2", "registrationId": "reg-2", "vendor": "fcm", "channels": ["dave", "carol"]], key: key
        )
        let objectID = try #require(saved["objectId"] as? String)
        _ = try await server.rest("PUT", "/1.1/installations/\(objectID)", body: ["badge": 3], key: key)
        let (found, device) = try await server.rest("GET", "/1.1/installations/\(objectID)", key: key)
        #expect(found == 200)
        #expect(device["objectId"] as? String == objectID && device["deviceType"] as? String == "android")
        #expect(device["installationId"] as? String == "i-2" && device["registrationId"] as? String == "reg-2" && device["vendor"] as? String == "fcm")
        #expect(device["channels"] as? [String] == ["carol", "dave"] && device["badge"] as? Int == 3)
        #expect(device["createdAt"] as? String == saved["createdAt"] as? String && device["deviceToken"] == nil)

        #expect(try await server.rest("DELETE", "/1.1/installations/\(objectID)", key: key).0 == 401)
        #expect(try await server.rest("DELETE", "/1.1/installations/\(objectID)").0 == 200)
        let (gone, error) = try await server.rest("GET", "/1.1/installations/\(objectID)", key: key)
        #expect(gone == 404 && error["code"] as? Int == 101)
        #expect(try await server.rest("DELETE", "/1.1/installations/\(objectID)").0 == 404)
        // Its channel went with it: Carol's push has no device.
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["carol"]))
        let line = try #require(try await PushLog.lines(server.config.pushLogPath, count: 1).first)
        #expect(line["devices"] == .object([:]))
        try await server.stop()
    }

    @Test func badInstallationsAreRefused() async throws {
        let server = try await TestServer.start()
        let key = server.config.appKey
        #expect(try await server.rest("POST", "/1.1/installations", body: ["deviceType": "ios", "deviceToken": "t"], key: "wrong").0 == 401)
        for body: [String: Any] in [
            ["deviceType": "windows", "deviceToken": "t"],
            ["deviceType": "ios"],
            ["deviceType": "android", "channels": ["bob"]],
            ["deviceType": "ios", "deviceToken": String(repeating: "a", count: 600)],
            ["deviceType": "ios", "deviceToken": "t", "channels": "bob"],
        ] {
            let (status, error) = try await server.rest("POST", "/1.1/installations", body: body, key: key)
            #expect(status == 400 && error["code"] as? Int == 107, "\(body)")
        }
        let (missing, error) = try await server.rest("PUT", "/1.1/installations/000000000000000000000000", body: ["badge": 0], key: key)
        #expect(missing == 404 && error["code"] as? Int == 101)
        let (_, saved) = try await server.rest("POST", "/1.1/installations", body: ["deviceType": "ios", "deviceToken": "t"], key: key)
        let objectID = try #require(saved["objectId"] as? String)
        let (badOperation, _) = try await server.rest(
            "PUT", "/1.1/installations/\(objectID)", body: ["channels": ["__op": "Increment", "objects": ["bob"]]], key: key
        )
        #expect(badOperation == 400)
        try await server.stop()
    }

    /// An Android device's Firebase token reaches the push provider with the member's push.
    @Test func anAndroidMembersRegistrationIdGoesWithTheirPush() async throws {
        let server = try await TestServer.start()
        let (status, _) = try await server.rest(
            "POST", "/1.1/installations",
            body: ["deviceType": "android", "installationId": "carols-phone", "registrationId": "fcm-token-1", "vendor": "fcm", "channels": ["carol"]],
            key: server.config.appKey
        )
        #expect(status == 200)
        let alice = try await server.login("alice")
        let cid = try await alice.startConversation(members: ["carol"])
        _ = try await alice.sendText("hi", cid: cid)
        let line = try #require(try await PushLog.lines(server.config.pushLogPath, count: 1).first)
        #expect(line["devices"] == .object(["carol": .strings(["fcm-token-1"])]))
        try await server.stop()
    }

    /// LeanCloud's mixed-push modules save the device first, then `PUT` the maker's vendor,
    /// registration id and the app's vendor account (`deviceProfile`) once its push service
    /// hands them a token: from then on the device is reached by that token, on that account.
    @Test func aMakersTokenSavedLaterReachesTheDeviceOnItsAccount() async throws {
        let push = RecordingPushGateway()
        let server = try await TestServer.start(push: push)
        let key = server.config.appKey
        let (_, saved) = try await server.rest(
            "POST", "/1.1/installations", body: ["deviceType": "android", "installationId": "carols-huawei", "channels": ["carol"]], key: key
        )
        let objectID = try #require(saved["objectId"] as? String)
        let (changed, _) = try await server.rest(
            "PUT", "/1.1/installations/\(objectID)", body: ["vendor": "HMS", "registrationId": "hms-token-1", "deviceProfile": "second-app"], key: key
        )
        #expect(changed == 200)
        let (_, device) = try await server.rest("GET", "/1.1/installations/\(objectID)", key: key)
        #expect(device["vendor"] as? String == "HMS" && device["registrationId"] as? String == "hms-token-1")
        #expect(device["deviceProfile"] as? String == "second-app")
        let alice = try await server.login("alice")
        _ = try await alice.sendText("hi", cid: try await alice.startConversation(members: ["carol"]))
        #expect(try await push.next().devices == ["carol": [PushDevice(token: "hms-token-1", service: .huawei, profile: "second-app")]])
        try await server.stop()
    }
}
