import Foundation
@testable import SwitchboardServer

extension VendorAccountSettings {
    /// Sends this account's requests to a loopback stand-in on `port`, trusting its test
    /// certificate, and tries again after 20 ms rather than a second.
    mutating func useStandIn(port: Int, trustRoots: String) {
        baseURL = URL(string: "https://127.0.0.1:\(port)")!
        trustRootsFile = trustRoots
        firstRetry = .milliseconds(20)
    }
}
