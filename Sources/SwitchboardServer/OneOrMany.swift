/// A config value written as one item or a list of them (`push.apns` for one team or several).
struct OneOrMany<Item: Decodable>: Decodable {
    let values: [Item]

    init(from decoder: any Decoder) throws {
        if let list = try? [Item](from: decoder) {
            values = list
        } else {
            values = [try Item(from: decoder)]
        }
    }
}
