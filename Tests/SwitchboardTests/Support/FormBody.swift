/// The fields of an `application/x-www-form-urlencoded` body, decoded.
enum FormBody {
    static func fields(_ body: String) -> [String: String] {
        Dictionary(body.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }, uniquingKeysWith: { first, _ in first })
    }
}
