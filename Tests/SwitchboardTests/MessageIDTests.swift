import SwitchboardCore
import Testing

/// Message ids keep LeanCloud's shape and never repeat.
@Suite struct MessageIDTests {
    @Test func idsAreDistinctAndInLeanCloudsShape() {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let ids = (0..<100_000).map { _ in Identifiers.messageID() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 22 && $0.allSatisfy(allowed.contains) })
        // Consecutive ids share no visible pattern: each position takes many values.
        for position in 0..<21 {
            let characters = Set(ids.prefix(1000).map { Array($0)[position] })
            #expect(characters.count > 50)
        }
    }
}
