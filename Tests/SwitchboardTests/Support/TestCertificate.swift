import Foundation

/// A self-signed certificate for 127.0.0.1 and localhost (valid until 2126) and its P-256
/// key: what the loopback stand-ins for Apple's and Google's push services serve, and what
/// the server under test is told to trust. A test fixture, trusted nowhere else.
enum TestCertificate {
    static let certificatePEM = """
-----BEGIN CERTIFICATE-----
MIIBuzCCAWGgAwIBAgIUWGZsGFtB63JYnbg8ZqlttxEtLAUwCgYIKoZIzj0EAwIw
JDEiMCAGA1UEAwwZc3dpdGNoYm9hcmQgdGVzdCBzdGFuZC1pbjAgFw0yNjExMjUw
MTI4MDRaGA8yMTI2MTEwMTAxMjgwNFowJDEiMCAGA1UEAwwZc3dpdGNoYm9hcmQg
dGVzdCBzdGFuZC1pbjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNwpc3eSUy+J
7S92GMoiFIJyS/+CytabAenQR6EOvBHKFGEnA/WdBQb5/6mfz2u4oapCr3DwB5eW
v2+xHgeV4DGjbzBtMB0GA1UdDgQWBBQ1snYDCgAAXf6lP1lxeZtJK0I79jAfBgNV
HSMEGDAWgBQ1snYDCgAAXf6lP1lxeZtJK0I79jAPBgNVHRMBAf8EBTADAQH/MBoG
A1UdEQQTMBGHBH8AAAGCCWxvY2FsaG9zdDAKBggqhkjOPQQDAgNIADBFAiEAtxhF
+v3KTyARSytSqAy2QQ4+dNesOYemuDt44y8TIIQCIGiilx/99fSTkHUsrdFU91cc
zt5jVzpKNykUrdI7uA04
-----END CERTIFICATE-----
"""

    static let keyPEM = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg+rYt9TGr2XLy6a3b
dOm4NSdH133M3E4e8LN685yrb/KhRANCAATcKXN3klMvie0vdhjKIhSCckv/gsrW
mwHp0EehDrwRyhRhJwP1nQUG+f+pn89ruKGqQq9w8AeXlr9vsR4HleAx
-----END PRIVATE KEY-----
"""

    /// The certificate in a file of its own, as a trust-roots setting names one.
    static func writeCertificate(in directory: String) throws -> String {
        let path = URL(fileURLWithPath: directory).appendingPathComponent("stand-in-ca.pem").path
        try certificatePEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
