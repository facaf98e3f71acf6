import SwitchboardHooks
import Testing

/// The keyword filter's matcher: every keyword found in one pass, runs masked once.
@Suite(.storeBlind) struct KeywordMatcherTests {
    @Test func masksEveryKeywordWhereverItStands() {
        let matcher = KeywordMatcher(keywords: ["he", "she", "hers", "his"], ignoresCase: false)
        #expect(matcher.masked("ushers") == "u***")
        #expect(matcher.masked("this is his") == "t*** is ***")
        #expect(matcher.masked("nothing here?") == "nothing ***re?")
        #expect(matcher.masked("calm") == nil)
    }

    @Test func overlappingAndNestedMatchesBecomeOneMask() {
        let matcher = KeywordMatcher(keywords: ["abc", "b", "cde"], ignoresCase: false)
        #expect(matcher.masked("xabcdey") == "x***y")
        #expect(matcher.masked("a b c") == "a *** c")
    }

    @Test func caseIsIgnoredOnlyWhenAsked() {
        let folding = KeywordMatcher(keywords: ["Darn", "ÉCOLE"], ignoresCase: true)
        #expect(folding.masked("DARN, darn, DaRn") == "***, ***, ***")
        #expect(folding.masked("une école") == "une ***")
        let exact = KeywordMatcher(keywords: ["Darn"], ignoresCase: false)
        #expect(exact.masked("darn Darn") == "darn ***")
    }

    @Test func worksOnAnyScript() {
        let matcher = KeywordMatcher(keywords: ["敏感词", "🙈"], ignoresCase: true)
        #expect(matcher.masked("这是敏感词吗🙈") == "这是***吗***")
        #expect(matcher.keywordCount == 2)
        #expect(KeywordMatcher(keywords: ["", "  "], ignoresCase: true).masked("  ") == "***")
    }
}
