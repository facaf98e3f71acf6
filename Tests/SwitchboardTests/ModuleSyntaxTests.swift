import Foundation
import Testing

@testable import SwitchboardJS

/// ES module syntax: the lexer under it, the scan of module specifiers the server uses to
/// find a project's packages, and `import`/`export` run through the CommonJS loader.
@Suite(.storeBlind) struct ModuleSyntaxTests {
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
        // As JavaScriptCore counts them: U+2028 and U+2029 end lines, except inside a string.
        var lexer = JavaScriptLexer("#!/usr/bin/env node\na `x\ny` 'p\\\nq' b\r\nc\rd\u{2029}e '\u{2028}' f")
        var lines: [String: Int] = [:]
        while let token = lexer.next() { lines[lexer.text(token)] = token.line }
        #expect(lines == ["a": 2, "`x\ny`": 2, "'p\\\nq'": 3, "b": 4, "c": 5, "d": 6, "e": 7, "'\u{2028}'": 7, "f": 7])
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

    // MARK: ES modules as CommonJS

    @Test func commonJSAndLookalikesAreLeftAlone() {
        for source in [
            "module.exports = require('x'); exports.exported = 1;",
            "const s = \"import x from 'y'\"; // export default 1\n/* export { s } */ const t = `import ${s}`;",
            "const o = { import: 1, export: 2 }; o.import; o?.export; class C { import() {} }",
            "function f() { import('lazy'); }",
        ] {
            #expect(ModuleSyntax.commonJS(source) == nil, "\(source)")
        }
    }

    @Test func everyLineStaysWhereItWasAndTheRestIsUntouched() throws {
        let source = """
            #!/usr/bin/env node
            import AV from 'leanengine';
            import {
              a,
              b as c,
            } from './lib.mjs'
            const o = { import: 1, export: 2 }; o.import; label: for (;;) break label;
            export const x = "import x from 'y'", /* export */ y = `export ${o.export}`;
            export default function () {}
            export { x as
              z }
            """
        let output = try #require(ModuleSyntax.commonJS(source))
        let lines = output.components(separatedBy: "\n"), original = source.components(separatedBy: "\n")
        #expect(lines.count == original.count + 1 && lines.last == "}")
        #expect(lines[0].hasPrefix("'use strict';{Object.defineProperties(exports, { __esModule: { value: true }, x: "))
        #expect(lines[0].hasSuffix("});///usr/bin/env node"))
        #expect(lines[1].hasPrefix("const { default: AV } = ") && lines[1].hasSuffix("(require('leanengine'));;"))
        #expect(lines[2].hasPrefix("const { a: a, b: c } = ") && lines[2].hasSuffix("(require('./lib.mjs'));"))
        #expect(lines[3...5] == ["", "", ""])
        #expect(lines[6] == original[6])
        #expect(lines[7] == original[7].replacingOccurrences(of: "export const", with: " const"))
        #expect(lines[8] == " function _default () {}")
        #expect(lines[9...10] == ["", ""])
    }

    /// What each export declaration exports, as the rewrite reads it.
    private func exportedNames(_ source: String) -> [String] {
        ModuleReader.items(in: JavaScriptLexer(source)).flatMap { item -> [String] in
            switch item.kind {
            case .exportDeclaration(let names): names
            case .exportDefaultDeclaration(let name, _): ["default=" + (name ?? "?")]
            case .exportDefaultExpression: ["default=expression"]
            case .exportList(let renames), .exportFrom(let renames): renames.map { $0.from + ">" + $0.to }
            case .exportAll(let namespace): ["*" + (namespace ?? "")]
            default: []
            }
        }
    }

    @Test func exportDeclarationsOfEveryShapeNameWhatTheyExport() {
        #expect(exportedNames("""
            export const { a = f(1, { b: 2 }), b: { c } = {}, ...d } = obj, [e = [1, 2], , ...[f]] = arr, g = `${h, i}`;
            export let j = 1
            let k = 2, l = 3
            export var m = function () { return 1, 2 }
            , n = 4;
            export function* o() {} export async function p() {} export class q extends r {}
            export default async function () {}
            """) == ["a", "c", "d", "e", "f", "g", "j", "m", "n", "o", "p", "q", "default=?"])
        #expect(exportedNames("export default async function named() {}") == ["default=named"])
        #expect(exportedNames("export default function* () {}") == ["default=?"])
        #expect(exportedNames("export default class extends Base {}") == ["default=?"])
        #expect(exportedNames("export default async () => 1") == ["default=expression"])
        #expect(exportedNames("export default (function () {})") == ["default=expression"])
        #expect(exportedNames("export { a, b as default, c as 'd e' }; export { default, 'f g' as h } from 'x'; export * from 'y'; export * as z from 'z'")
            == ["a>a", "b>default", "c>'d e'", "default>default", "'f g'>h", "*", "*z"])
        // A local export named by a string is a syntax error: left for the engine to report.
        #expect(exportedNames("export { 'a' }").isEmpty)
    }

    @Test func anAnonymousDefaultTakesANameTheModuleDoesNotUse() throws {
        let output = try #require(ModuleSyntax.commonJS("const _default = 1, _default1 = 2;\nexport default class extends Base {}"))
        #expect(output.hasSuffix("\n class _default2 extends Base {}\n}"))
        #expect(output.contains("default: { enumerable: true, get: () => _default2 }"))
    }

    private func project(_ files: [String: String]) throws(ScriptError) -> ScriptContext {
        try ScriptContext(.project(files: files, entry: "cloud.js"), name: "app", budget: .milliseconds(200))
    }

    private func content(_ script: ScriptContext, _ params: String = "{}") -> String? {
        guard case .value(let json) = script.invoke(hook: "_messageReceived", paramsJSON: params),
              let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        else { return nil }
        return object["content"] as? String
    }

    @Test func aProjectImportsTheSDKAndItsOwnModules() throws {
        let script = try project([
            "cloud.js": """
                import AV from 'leanengine';
                import { greet } from './lib.mjs';
                AV.Cloud.define('_messageReceived', (request) => ({ content: greet(request.params.content) }));
                """,
            "lib.mjs": "export function greet(name) { return 'hello ' + name; }",
        ])
        #expect(content(script, #"{"content":"bob"}"#) == "hello bob")
    }

    @Test func aDefaultExportIsRequiredFromCommonJSAndAnImportMixesWithRequire() throws {
        let script = try project([
            "cloud.js": """
                const AV = require('leanengine');
                import mask from './mask.mjs';
                const cjs = require('./cjs');
                AV.Cloud.define('_messageReceived', (request) => ({ content: [mask(request.params.content), cjs.shout('x'), cjs.marked, cjs.keys].join(' ') }));
                """,
            "cjs.js": """
                const mask = require('./mask.mjs');
                exports.shout = (text) => mask.default(text).toUpperCase() + '!';
                exports.marked = String(mask.__esModule);
                exports.keys = Object.keys(mask).join(',');
                """,
            "mask.mjs": """
                import { banned } from './words.js';
                export default function mask(text) { return banned.reduce((t, word) => t.split(word).join('*'.repeat(word.length)), text); }
                export const count = 1;
                """,
            "words.js": "exports.banned = ['darn', 'x'];",
        ])
        #expect(content(script, #"{"content":"oh darn"}"#) == "oh **** *! true default,count")
    }

    @Test func everyImportAndExportForm() throws {
        let script = try project([
            "cloud.js": """
                import AV, { Cloud } from 'leanengine';
                import sdk, * as whole from 'leanengine';
                import * as forms from './forms.mjs';
                import anonymousFunction from './anonymous-function.mjs';
                import AnonymousClass from './anonymous-class.mjs';
                import answer from './expression.mjs';
                import asyncDefault from './async-default.mjs';
                import pad from './pad.js';
                import { padded as named, "odd name" as odd } from './pad.js';
                import './side-effect.js';
                import data from './data.json' with { type: 'json' };
                import * as starOnly from './star-only.mjs';
                Cloud.define('_messageReceived', async () => {
                  const before = forms.counter;
                  forms.bump();
                  const lazy = await import('./pad.js');
                  return { content: [
                    AV === sdk && sdk === whole && Cloud === AV.Cloud,
                    forms.f(), await forms.af(), [...forms.g()].join(''), new forms.C().name, forms.one, forms.two,
                    before, forms.counter, forms.p, forms.r, forms.s, forms.rest.extra,
                    forms.local, forms.alias, forms.default, forms.hello('re'), forms.starred, forms.ns.greet('ns'),
                    'default' in forms.ns, 'default' in starOnly, starOnly.starred,
                    anonymousFunction(), new AnonymousClass().kind, answer, await asyncDefault(),
                    pad('a'), named, odd, globalThis.sideEffect, data.from,
                    lazy.default('z'), lazy.padded, typeof import.meta.url, import.meta.url,
                  ].join(' ') };
                });
                """,
            "forms.mjs": """
                export function f() { return 'f'; }
                export async function af() { return 'af'; }
                export function* g() { yield 'g'; yield 'h'; }
                export class C { get name() { return 'C'; } }
                export const one = 1, two = 2;
                export let counter = 0;
                export function bump() { counter += 1; }
                export var { p, q: [r, s = 's'], ...rest } = { p: 'p', q: ['r'], extra: 'rest' };
                const local = 'local';
                export { local, local as alias, local as default };
                export { greet as hello } from './lib.mjs';
                export * from './star.mjs';
                export * as ns from './lib.mjs';
                """,
            "lib.mjs": "export function greet(name) { return 'hi ' + name; }\nexport default 'lib default';",
            "star.mjs": "export const starred = 'starred'; export const local = 'shadowed'; export default 'not starred';",
            "star-only.mjs": "export * from './star.mjs';",
            "anonymous-function.mjs": "export default function () { return 'anonymous'; }",
            "anonymous-class.mjs": "export default class { get kind() { return 'class'; } }",
            "async-default.mjs": "export default async function named() { return named.name; }",
            "expression.mjs": "export default 40 + 2;",
            "pad.js": "module.exports = (text) => '[' + text + ']'; module.exports.padded = 'padded'; module.exports['odd name'] = 'odd';",
            "side-effect.js": "globalThis.sideEffect = 'side';",
            "data.json": #"{ "from": "json" }"#,
        ])
        #expect(content(script) == [
            "true", "f af gh C 1 2", "0 1 p r s rest", "local local local hi re starred hi ns true false starred",
            "anonymous class 42 named", "[a] padded odd side json", "[z] padded string file:///cloud.js",
        ].joined(separator: " "))
    }

    /// Node's ES modules make their own `__dirname`; the code of Babel's days used the
    /// wrapper's.
    @Test func aModuleMayDeclareWhatTheWrapperProvides() throws {
        let script = try project([
            "cloud.js": """
                import AV from 'leanengine';
                import { here, folder, meta } from './lib/paths.mjs';
                import { babel } from './lib/babel.js';
                AV.Cloud.onIMMessageReceived(() => ({ content: [here, folder, meta, babel].join(' ') }));
                """,
            "lib/paths.mjs": """
                import path from 'path';
                import { URL } from 'url';
                const __filename = new URL(import.meta.url).pathname;
                const __dirname = path.dirname(__filename);
                const module = 'mine';
                export const here = __filename, folder = __dirname + ' ' + module;
                export const meta = [import.meta === import.meta, import.meta.filename, import.meta.dirname].join(',');
                """,
            "lib/babel.js": "import AV from 'leanengine';\nexport const babel = __dirname + ' ' + typeof module.exports;",
        ])
        #expect(content(script) == "/lib/paths.mjs /lib mine true,/lib/paths.mjs,/lib /lib object")
    }

    @Test func aLooseFileMayBeAnESModule() throws {
        let script = try ScriptContext(source: """
            import AV from 'leanengine';
            import { Cloud } from 'leanengine';
            export const unused = 1;
            var local = 'module scope';
            function helper() { return local; }
            Cloud.onIMMessageReceived(() => ({ content: [AV.Cloud === Cloud, helper(), typeof globalThis.local, typeof globalThis.helper, typeof import.meta.url].join(' ') }));
            """, file: "hooks.mjs", budget: .milliseconds(200))
        // Its declarations are the module's, not globals; its file has no path in a project.
        #expect(content(script) == "true module scope undefined undefined undefined")
    }

    @Test func errorsInAnESModuleReportItsOwnLines() throws {
        do {
            _ = try project([
                "cloud.js": "import './thrower.mjs';",
                "thrower.mjs": "import AV from 'leanengine';\nimport {\n  Cloud\n} from 'leanengine';\nexport const x = 1;\nthrow new Error('boom');",
            ])
            Issue.record("a throwing module loaded")
        } catch {
            #expect(error.file == "app/thrower.mjs")
            #expect(error.line == 6)
            #expect(error.message.contains("boom"))
        }
        do {
            _ = try project(["cloud.js": "import {\n  x\n} from './lib.mjs';\nexport let y = ;"])
            Issue.record("a broken module loaded")
        } catch {
            #expect(error.file == "app/cloud.js")
            #expect(error.line == 4)
        }
        let missing = try project(["cloud.js": "import AV from 'leanengine';\n\nimport missing from './missing.mjs';\nAV.Cloud.onIMMessageReceived(() => missing());"])
        let missingMessage = missing.failure(of: "_messageReceived")
        #expect(missingMessage.contains("module './missing.mjs' is not installed"))
        #expect(missingMessage.contains("required at app/cloud.js:3"))
        let script = try project([
            "cloud.js": "import { fail } from './fail.mjs';\nimport AV from 'leanengine';\nAV.Cloud.onIMMessageReceived(() => fail());",
            "fail.mjs": "export {\n  fail\n};\nfunction fail() {\n  throw new Error('in a hook');\n}",
        ])
        let message = script.failure(of: "_messageReceived")
        #expect(message.contains("in a hook"))
        #expect(message.contains("app/fail.mjs:5"))
    }
}
