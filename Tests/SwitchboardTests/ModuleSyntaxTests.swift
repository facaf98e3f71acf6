import Foundation
import Testing

@testable import SwitchboardJS

/// ES module syntax: the lexer under it, the scan of module specifiers the server uses to
/// find a project's packages, and `import`/`export` run through the CommonJS loader.
@Suite struct ModuleSyntaxTests {
    // MARK: Lexer

    /// Each token's kind and text.
    private func tokens(_ source: String) -> [(JavaScriptToken.Kind, String)] {
        var lexer = JavaScriptLexer(source)
        var tokens: [(JavaScriptToken.Kind, String)] = []
        while let token = lexer.next() { tokens.append((token.kind, lexer.text(token))) }
        return tokens
    }

    private func texts(_ source: String) -> [String] {
        tokens(source).map(\.1)
    }

    @Test func slashDividesAfterAValueAndStartsARegexElsewhere() {
        #expect(texts("a = b / c / d") == ["a", "=", "b", "/", "c", "/", "d"])
        #expect(texts("(a) / 2; x[0] /= 3; a++ / 4; 'a' / 5; 6 / 7") == [
            "(", "a", ")", "/", "2", ";", "x", "[", "0", "]", "/=", "3", ";", "a", "++", "/", "4", ";", "'a'", "/", "5", ";", "6", "/", "7",
        ])
        #expect(tokens("x = /ab+c/gi.test(s)").map(\.0) == [.identifier, .punctuator, .regex, .punctuator, .identifier, .punctuator, .identifier, .punctuator])
        #expect(texts("x = /ab+c/gi.test(s)")[2] == "/ab+c/gi")
        // A slash and a brace inside a class, and an escaped slash, do not end it.
        #expect(texts(#"return /[/{]\//.source"#) == ["return", #"/[/{]\//"#, ".", "source"])
        for keyword in ["typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await"] {
            #expect(tokens("\(keyword) /x/g").last?.0 == .regex, "after \(keyword)")
        }
        // A keyword after `.` is a property name: what follows divides.
        #expect(texts("a.return / 2 / 3") == ["a", ".", "return", "/", "2", "/", "3"])
        // After `}` a slash starts a regular expression (a block ends there far more often
        // than an object literal is divided).
        #expect(tokens("function f() {}\n/foo/.test(x)")[6].0 == .regex)
        #expect(tokens("if (a) { b = c } /d/.exec(e)")[9] == (.regex, "/d/"))
    }

    @Test func commentsAreSkippedWhateverTheyContain() {
        #expect(texts("a // it's \"quoted\" `and` /regex/\nb /* 'x\" ` */ c") == ["a", "b", "c"])
        #expect(texts("a / b // c / d\n/ e") == ["a", "/", "b", "/", "e"])
        var lexer = JavaScriptLexer("/* one\ntwo\nthree */ x\r\n// y\n\u{2028}z")
        #expect(lexer.next().map { [$0.line, $0.newlineBefore ? 1 : 0] } == [3, 1])
        #expect(lexer.next().map(\.line) == 6)
        #expect(lexer.next() == nil)
    }

    @Test func stringsHideWhatTheyContain() {
        #expect(tokens(#"x = 'import x from "y"'; "require('z') \" // not a comment"; z"#).map(\.0)
            == [.identifier, .punctuator, .string, .punctuator, .string, .punctuator, .identifier])
        let lexer = JavaScriptLexer(#"'a\x62\u0063\u{1F600}\n\'\\\"' "\uD83D\uDE00\101" 'one\\#ntwo' 'cut"#)
        var reading = lexer
        var values: [String] = []
        while let token = reading.next() { values.append(lexer.stringValue(token)) }
        #expect(values == ["abc😀\n'\\\"", "😀A", "onetwo", "cut"])
    }

    @Test func templatesNestAndTheirSubstitutionsAreCode() {
        let source = "`a ${ {b: `c ${ d } e`}.b } f` + `x\\`${'`'}y` / 2"
        #expect(tokens(source).map(\.1) == [
            "`a ${", "{", "b", ":", "`c ${", "d", "} e`", "}", ".", "b", "} f`", "+", "`x\\`${", "'`'", "}y`", "/", "2",
        ])
        #expect(tokens(source).map(\.0) == [
            .templateHead, .punctuator, .identifier, .punctuator, .templateHead, .identifier, .template, .punctuator, .punctuator,
            .identifier, .template, .punctuator, .templateHead, .string, .template, .punctuator, .number,
        ])
        // A `}` inside a regular expression in a substitution does not close it.
        #expect(texts("`${ /}/.source }`") == ["`${", "/}/", ".", "source", "}`"])
    }

    @Test func depthCountsBracesAndSubstitutions() {
        var lexer = JavaScriptLexer("a { b `${ c }` { d } } e")
        var depths: [String: Int] = [:]
        while let token = lexer.next() { depths[lexer.text(token), default: 0] = token.depth }
        #expect(depths == ["a": 0, "{": 1, "b": 1, "`${": 1, "c": 2, "}`": 1, "d": 2, "}": 0, "e": 0])
    }

    @Test func linesCountEveryKindOfLineBreak() {
        var lexer = JavaScriptLexer("#!/usr/bin/env node\na `x\ny` 'p\\\nq' b\r\nc\rd\u{2029}e")
        var lines: [String: Int] = [:]
        while let token = lexer.next() { lines[lexer.text(token)] = token.line }
        #expect(lines == ["a": 2, "`x\ny`": 2, "'p\\\nq'": 3, "b": 4, "c": 5, "d": 6, "e": 7])
    }

    @Test func numbersNamesAndPunctuators() {
        #expect(texts("1.5e+3 0x1F .5 1_000n a?.b c?.5:1 ...d #e \\u0061 é") == [
            "1.5e+3", "0x1F", ".5", "1_000n", "a", "?.", "b", "c", "?", ".5", ":", "1", "...", "d", "#e", "\\u0061", "é",
        ])
        #expect(texts("a\u{00A0}b\u{FEFF}c") == ["a", "b", "c"])
    }

    // MARK: Module specifiers

    @Test func theScanListsEveryStaticSpecifierInOrder() {
        let source = """
            #!/usr/bin/env node
            const a = require('a');
            import b from "b";
            import 'c';
            export { d } from 'd';
            export * from 'e';
            const f = await import('f');
            import g, { h as i, "j k" as l } from 'g';
            import * as m from './m.json' with { type: 'json' };
            export * as n from '@scope/n';
            import {
              o,
            } from 'o';
            export const p = require('p'), q = () => require('q');
            function r() { if (x) { return import(`r`) || require('r/deep'); } }
            """
        #expect(ModuleSpecifiers.scan(source) == [
            ModuleSpecifier(name: "a", line: 2), ModuleSpecifier(name: "b", line: 3), ModuleSpecifier(name: "c", line: 4),
            ModuleSpecifier(name: "d", line: 5), ModuleSpecifier(name: "e", line: 6), ModuleSpecifier(name: "f", line: 7),
            ModuleSpecifier(name: "g", line: 8), ModuleSpecifier(name: "./m.json", line: 9), ModuleSpecifier(name: "@scope/n", line: 10),
            ModuleSpecifier(name: "o", line: 13), ModuleSpecifier(name: "p", line: 14), ModuleSpecifier(name: "q", line: 14),
            ModuleSpecifier(name: "r/deep", line: 15),
        ])
    }

    @Test func theScanSkipsWhatIsNotASpecifier() {
        let source = """
            loader.require('member'); loader?.require('optional');
            require(name); require('a' + b); require(`template`); import(name);
            // require('comment') import 'comment'
            /* import x from 'block'; */
            const s = "require('string') import x from 'string'";
            const t = `require('template') ${ `import('nested')` }`;
            const o = { import: 1, require: 2, export: 3 };
            o.import('property'); o.export;
            x = y / require('divided') / 2;
            """
        #expect(ModuleSpecifiers.scan(source) == [ModuleSpecifier(name: "divided", line: 9)])
    }

    @Test func theScanDecodesEscapedSpecifiers() {
        #expect(ModuleSpecifiers.scan(#"require('\x6c\u0065ft-pad'); import x from "a\"b";"#)
            == [ModuleSpecifier(name: "left-pad", line: 1), ModuleSpecifier(name: "a\"b", line: 1)])
    }
}
