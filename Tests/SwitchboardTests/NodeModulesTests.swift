import CJavaScriptCore
import Foundation
import Testing

@testable import SwitchboardJS

/// Node's core modules in hook scripts: what cloud code calls answers as in Node (the
/// expected values are real Node's, in NodeAnswers), the modules load under both names and
/// from vendored packages, and the natives behind them stay out of the scripts' reach.
@Suite(.storeBlind) struct NodeModulesTests {
    private func load(_ source: String) throws(ScriptError) -> ScriptContext {
        try ScriptContext(source: source, file: "cloud.js", budget: .seconds(1))
    }

    /// What `_messageReceived` answered, decoded.
    private func answer(of script: ScriptContext) throws -> [String: Any] {
        let outcome = script.invoke(hook: "_messageReceived", paramsJSON: "{}")
        guard case .value(let json) = outcome else {
            Issue.record("the hook did not answer: \(outcome)")
            return [:]
        }
        return try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// Evaluates each expression in one VM, in the form NodeAnswers holds, and checks it.
    private func expectNodeAnswers(_ cases: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let functions = cases.map { "() => (\($0.0))" }.joined(separator: ",\n")
        let script = try load("""
            const cases = [\(functions)];
            function attempt(f) {
              try { const value = f(); return JSON.stringify(value === undefined ? null : value); }
              catch (e) { return 'throws ' + (e.code || e.name); }
            }
            AV.Cloud.define('_messageReceived', () => ({ results: cases.map(attempt) }));
            """)
        let results = try #require(try answer(of: script)["results"] as? [String], sourceLocation: sourceLocation)
        #expect(results.count == cases.count, sourceLocation: sourceLocation)
        for ((expression, expected), result) in zip(cases, results) {
            #expect(result == expected, "\(expression)", sourceLocation: sourceLocation)
        }
    }

    @Test func cryptoAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.crypto) }
    @Test func bufferAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.buffer) }
    @Test func querystringAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.querystring) }
    @Test func pathAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.path) }
    @Test func legacyURLAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.legacyURL) }
    @Test func whatwgURLAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.whatwgURL) }
    @Test func utilAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.util) }
    @Test func eventsAnswersAsNodeDoes() throws { try expectNodeAnswers(NodeAnswers.events) }

    /// ES modules' idiom for their folder: path.dirname(fileURLToPath(import.meta.url)).
    /// Expected values are Node 20's.
    @Test func fileURLsAndPathsConvertAsNodeDoes() throws {
        let script = try load("""
            const { fileURLToPath, pathToFileURL } = require('url');
            const code = (f) => { try { f(); return 'none'; } catch (e) { return e.code; } };
            AV.Cloud.define('_messageReceived', () => ({
              urls: [pathToFileURL('/tmp/a b#c?d%e\\\\f').href, pathToFileURL('rel/x').href, pathToFileURL('/dir/').href],
              paths: [fileURLToPath('file:///tmp/a%20b'), fileURLToPath(new URL('file:///x/y%23z')), fileURLToPath('file://localhost/l')],
              errors: [code(() => fileURLToPath('http://x/y')), code(() => fileURLToPath('file:///a%2Fb')), code(() => fileURLToPath('file://host/a'))],
            }));
            """)
        let answer = try answer(of: script)
        #expect(answer["urls"] as? [String] == ["file:///tmp/a%20b%23c%3Fd%25e%5Cf", "file:///rel/x", "file:///dir/"])
        #expect(answer["paths"] as? [String] == ["/tmp/a b", "/x/y#z", "/l"])
        #expect(answer["errors"] as? [String] == ["ERR_INVALID_URL_SCHEME", "ERR_INVALID_FILE_URL_PATH", "ERR_INVALID_FILE_URL_HOST"])
    }

    /// Expected values are Node 20's: which checks pass, and the failures' class, code, operator
    /// and whether the message was generated.
    @Test func assertAnswersAsNodeDoes() throws {
        let script = try load("""
            const assert = require('assert');
            const results = [];
            const t = (f) => { try { f(); results.push('ok'); } catch (e) { results.push(e.name + '|' + e.code + '|' + e.operator + '|' + e.generatedMessage); } };
            t(() => assert(1)); t(() => assert(0)); t(() => assert.ok('')); t(() => assert.equal(1, '1')); t(() => assert.equal(1, 2));
            t(() => assert.strictEqual(1, '1')); t(() => assert.notStrictEqual(1, 1)); t(() => assert.deepEqual({ a: 1 }, { a: '1' }));
            t(() => assert.deepStrictEqual({ a: 1 }, { a: '1' })); t(() => assert.deepStrictEqual([1, { b: [2] }], [1, { b: [2] }]));
            t(() => assert.deepStrictEqual(new Date(0), new Date(0))); t(() => assert.deepStrictEqual(new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]])));
            t(() => assert.deepStrictEqual(new Set([1, 2]), new Set([2, 1]))); t(() => assert.deepStrictEqual(NaN, NaN)); t(() => assert.deepStrictEqual(0, -0));
            t(() => assert.deepEqual(0, -0)); t(() => assert.deepStrictEqual(Object.create(null), {})); t(() => assert.deepEqual(Object.create(null), {}));
            t(() => assert.deepStrictEqual([1, 2], { 0: 1, 1: 2, length: 2 })); t(() => assert.throws(() => { throw new TypeError('x'); }, TypeError));
            t(() => assert.throws(() => {})); t(() => assert.throws(() => { throw new Error('abc'); }, /b/)); t(() => assert.throws(() => { throw new Error('abc'); }, { message: 'abc' }));
            t(() => assert.doesNotThrow(() => { throw new Error('x'); })); t(() => assert.fail('boom')); t(() => assert.ifError(null));
            t(() => assert.ifError(new Error('e'))); t(() => assert.match('abc', /z/)); t(() => assert.strict.equal(1, '1'));
            t(() => assert.notDeepStrictEqual({ a: 1 }, { a: 1 })); t(() => assert.deepStrictEqual(/a/g, /a/g)); t(() => assert.deepStrictEqual(/a/g, /a/i));
            t(() => assert.deepStrictEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))); t(() => assert.deepStrictEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3])));
            const messages = [];
            for (const f of [() => assert.strictEqual(1, 2), () => assert.equal(1, 2), () => assert.fail('boom'), () => assert.ok(false, 'custom'), () => assert.notStrictEqual(1, 1)]) {
              try { f(); } catch (e) { messages.push(e.message); }
            }
            const cycle = { name: 'a' }; cycle.self = cycle;
            const twin = { name: 'a' }; twin.self = twin;
            AV.Cloud.define('_messageReceived', () => ({ results, messages, cycles: require('util').isDeepStrictEqual(cycle, twin) }));
            """)
        let answer = try answer(of: script)
        let failure = { (check: String, generated: Bool) in "AssertionError|ERR_ASSERTION|\(check)|\(generated)" }
        #expect(answer["results"] as? [String] == [
            "ok", failure("==", true), failure("==", true), "ok", failure("==", true),
            failure("strictEqual", true), failure("notStrictEqual", true), "ok",
            failure("deepStrictEqual", true), "ok",
            "ok", "ok",
            "ok", "ok", failure("deepStrictEqual", true),
            "ok", failure("deepStrictEqual", true), "ok",
            failure("deepStrictEqual", true), "ok",
            failure("throws", false), "ok", "ok",
            failure("doesNotThrow", false), failure("fail", false), "ok",
            failure("ifError", false), failure("match", true), failure("strictEqual", true),
            failure("notDeepStrictEqual", true), "ok", failure("deepStrictEqual", true),
            "ok", failure("deepStrictEqual", true),
        ])
        #expect(answer["messages"] as? [String] == [
            "Expected values to be strictly equal:\n\n1 !== 2\n", "1 == 2", "boom", "custom", "Expected \"actual\" to be strictly unequal to: 1",
        ])
        #expect(answer["cycles"] as? Bool == true)
    }

    @Test func coreModulesAnswerToBothNamesAndNothingElse() throws {
        let script = try load("""
            const names = ['buffer', 'crypto', 'events', 'path', 'querystring', 'url', 'util'];
            const same = names.filter((name) => require('node:' + name) === require(name));
            const kinds = names.map((name) => typeof require(name));
            AV.Cloud.define('_messageReceived', () => {
              // In a call, a module that cannot be had throws at once.
              let unknown;
              try { require('node:nope'); } catch (e) { unknown = e.message; }
              return { same, kinds, unknown, buffer: require('buffer').Buffer === Buffer, events: require('events') === require('events').EventEmitter };
            });
            """)
        let answer = try answer(of: script)
        #expect(answer["same"] as? [String] == ["buffer", "crypto", "events", "path", "querystring", "url", "util"])
        #expect(answer["kinds"] as? [String] == ["object", "object", "function", "object", "object", "object", "object"])
        #expect((answer["unknown"] as? String)?.contains("module 'node:nope' is one of Node's modules that hook scripts do not have") == true)
        #expect(answer["buffer"] as? Bool == true)
        #expect(answer["events"] as? Bool == true)
    }

    @Test func randomValuesAreRandomAndWithinTheirBounds() throws {
        let script = try load("""
            const crypto = require('crypto');
            const hex = (bytes) => Buffer.from(bytes).toString('hex');
            const filled = new Uint8Array(32);
            crypto.randomFillSync(filled, 8, 16);
            const ints = Array.from({ length: 300 }, () => crypto.randomInt(3));
            const ranged = Array.from({ length: 300 }, () => crypto.randomInt(-2, 2));
            AV.Cloud.define('_messageReceived', () => ({
              bytes: [hex(crypto.randomBytes(32)), hex(crypto.randomBytes(32))],
              filled: hex(filled),
              big: crypto.randomBytes(200000).some((byte, i) => i > 131072 && byte !== 0),
              uuids: [crypto.randomUUID(), crypto.randomUUID()],
              ints: [...new Set(ints)].sort((a, b) => a - b),
              ranged: [...new Set(ranged)].sort((a, b) => a - b),
            }));
            """)
        let answer = try answer(of: script)
        let bytes = try #require(answer["bytes"] as? [String])
        #expect(bytes.count == 2 && bytes[0].count == 64 && bytes[0] != bytes[1])
        // Only bytes 8..<24 are filled: the rest stays zero, and the filled part is not.
        let filled = try #require(answer["filled"] as? String)
        #expect(filled.prefix(16) == String(repeating: "0", count: 16) && filled.suffix(16) == String(repeating: "0", count: 16))
        #expect(filled.dropFirst(16).prefix(32) != Substring(String(repeating: "0", count: 32)))
        // Past the first 64 KiB slice the native fills, bytes are random too.
        #expect(answer["big"] as? Bool == true)
        let uuids = try #require(answer["uuids"] as? [String])
        let v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        #expect(uuids.allSatisfy { $0.wholeMatch(of: v4) != nil } && uuids[0] != uuids[1])
        #expect(answer["ints"] as? [Int] == [0, 1, 2])
        #expect(answer["ranged"] as? [Int] == [-2, -1, 0, 1])
    }

    @Test func callbacksComeAfterTheCallAndPromisesSettle() throws {
        let script = try load("""
            const crypto = require('crypto');
            const util = require('util');
            const { once, EventEmitter } = require('events');
            AV.Cloud.define('_messageReceived', async () => {
              const order = [];
              const bytes = await new Promise((resolve, reject) => {
                crypto.randomBytes(8, (error, buffer) => { order.push('callback'); error ? reject(error) : resolve(buffer); });
                order.push('returned');
              });
              const add = util.promisify((a, b, callback) => callback(null, a + b));
              const fail = util.promisify((callback) => callback(new Error('nope')));
              const failed = await fail().then(() => 'resolved', (e) => e.message);
              const callbacked = await new Promise((resolve) => util.callbackify(async (x) => x * 2)(21, (e, v) => resolve([e, v])));
              const falsy = await new Promise((resolve) => util.callbackify(() => Promise.reject(null))((e) => resolve([e.code, e.reason])));
              const emitter = new EventEmitter();
              const ready = once(emitter, 'ready');
              emitter.emit('ready', 'a', 'b');
              return { order, length: bytes.length, sum: await add(2, 3), failed, callbacked, falsy, ready: await ready };
            });
            """)
        let answer = try answer(of: script)
        #expect(answer["order"] as? [String] == ["returned", "callback"])
        #expect(answer["length"] as? Int == 8)
        #expect(answer["sum"] as? Int == 5)
        #expect(answer["failed"] as? String == "nope")
        #expect((answer["callbacked"] as? [Any])?.last as? Int == 42)
        #expect((answer["falsy"] as? [Any])?.first as? String == "ERR_FALSY_VALUE_REJECTION")
        #expect(answer["ready"] as? [String] == ["a", "b"])
    }

    @Test func warningsGoToTheScriptsLog() throws {
        let script = try load("""
            const util = require('util');
            const EventEmitter = require('events');
            const old = util.deprecate(() => 'still works', 'old() is going away', 'DEP_OLD');
            AV.Cloud.define('_messageReceived', () => {
              const results = [old(), old()];
              const emitter = new EventEmitter();
              emitter.setMaxListeners(1);
              emitter.on('x', () => {});
              emitter.on('x', () => {});
              return { results };
            });
            """)
        #expect(try answer(of: script)["results"] as? [String] == ["still works", "still works"])
        let warnings = script.drainLogs().filter { $0.0 == "warning" }.map(\.1)
        #expect(warnings.count == 2)
        #expect(warnings.first == "[DEP_OLD] DeprecationWarning: old() is going away")
        #expect(warnings.last?.contains("MaxListenersExceededWarning") == true)
    }

    @Test func theGlobalBufferIsCompiledOnFirstUseAndAssignable() throws {
        let script = try load("""
            const before = typeof Object.getOwnPropertyDescriptor(globalThis, 'Buffer').get;
            const used = Buffer.from('hi').toString('base64');
            const after = Object.getOwnPropertyDescriptor(globalThis, 'Buffer');
            Buffer = 'replaced';
            AV.Cloud.define('_messageReceived', () => ({
              before, used, afterIsValue: 'value' in after && after.value === require('buffer').Buffer,
              enumerable: after.enumerable, replaced: Buffer, moduleKept: typeof require('buffer').Buffer,
            }));
            """)
        let answer = try answer(of: script)
        #expect(answer["before"] as? String == "function")
        #expect(answer["used"] as? String == "aGk=")
        #expect(answer["afterIsValue"] as? Bool == true)
        #expect(answer["enumerable"] as? Bool == false)
        #expect(answer["replaced"] as? String == "replaced")
        #expect(answer["moduleKept"] as? String == "function")
    }

    @Test func scriptsCannotReachTheNativesOrTheModulesHelpers() throws {
        let script = try load("""
            AV.Cloud.define('_messageReceived', () => {
              const refused = [];
              for (const name of ['switchboard:native-crypto', 'switchboard:errors', 'node:switchboard:codecs', 'switchboard:whatwg-url']) {
                try { require(name); } catch (e) { refused.push(name); }
              }
              return { globals: [typeof __nativeCrypto, typeof __nodeModuleSource, typeof __compileModule, typeof __projectModules], refused };
            });
            """)
        let answer = try answer(of: script)
        #expect(answer["globals"] as? [String] == ["undefined", "undefined", "undefined", "undefined"])
        #expect(answer["refused"] as? [String] == ["switchboard:native-crypto", "switchboard:errors", "node:switchboard:codecs", "switchboard:whatwg-url"])
    }

    @Test func aProjectsOwnFilesDoNotReplaceCoreModules() throws {
        let script = try ScriptContext(.project(files: [
            "cloud.js": """
                const crypto = require('crypto');
                const path = require('./path');
                AV.Cloud.define('_messageReceived', () => ({ fake: crypto.fake === true, md5: crypto.createHash('md5').update('abc').digest('hex'), path }));
                """,
            "node_modules/crypto/index.js": "exports.fake = true;",
            "path.js": "module.exports = 'the project\\'s own path.js';",
        ], entry: "cloud.js"), name: "myapp", budget: .seconds(1))
        let answer = try answer(of: script)
        #expect(answer["fake"] as? Bool == false)
        #expect(answer["md5"] as? String == "900150983cd24fb0d6963f7d28e17f72")
        #expect(answer["path"] as? String == "the project's own path.js")
    }

    /// Debian's uuid@8, as vendored by a project, over this crypto and Buffer.
    @Test func debiansUUIDPackageLoadsAndAnswers() throws {
        let root = "/usr/share/nodejs/uuid"
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root)
        var files: [String: String] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files["node_modules/uuid/" + path] = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
        }
        #expect(files["node_modules/uuid/package.json"] != nil)
        files["cloud.js"] = """
            const uuid = require('uuid');
            AV.Cloud.define('_messageReceived', () => ({
              v4: [uuid.v4(), uuid.v4()],
              v5: uuid.v5('hello.example.com', uuid.v5.DNS),
              v5URL: uuid.v5('https://leancloud.cn/', uuid.v5.URL),
              v3: uuid.v3('hello.example.com', uuid.v3.DNS),
              v1: uuid.version(uuid.v1()),
              valid: uuid.validate(uuid.v4()) && !uuid.validate('not-a-uuid'),
            }));
            """
        let script = try ScriptContext(.project(files: files, entry: "cloud.js"), name: "uuidapp", budget: .seconds(1))
        let answer = try answer(of: script)
        let v4 = try #require(answer["v4"] as? [String])
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        #expect(v4.count == 2 && v4.allSatisfy { $0.wholeMatch(of: pattern) != nil } && v4[0] != v4[1])
        #expect(answer["v5"] as? String == "fdda765f-fc57-5604-a269-52a7df8164ec")
        #expect(answer["v5URL"] as? String == "81a878f3-5a14-5a46-9d1b-3925b172bd26")
        #expect(answer["v3"] as? String == "9125a8dc-52ee-365b-a5aa-81b0b3681cf6")
        #expect(answer["v1"] as? Int == 1)
        #expect(answer["valid"] as? Bool == true)
    }

    /// The natives on their own, in a bare context: good arguments answer, bad ones throw a
    /// TypeError and never bring the process down.
    @Test func theNativesCheckTheirArguments() throws {
        let group = JSContextGroupCreate()!
        let context = JSGlobalContextCreateInGroup(group, nil)!
        defer {
            JSGlobalContextRelease(context)
            JSContextGroupRelease(group)
        }
        NativeCrypto.install(in: context)
        let source = """
            (() => {
              const n = __nativeCrypto;
              const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
              const abc = new Uint8Array([0, 97, 98, 99, 0]).subarray(1, 4);
              const filled = new Uint8Array(1000);
              n.randomFill(filled.subarray(500));
              const refusals = [
                () => n.digest('md4', abc), () => n.digest('md5', 'abc'), () => n.digest('md5', [97]), () => n.digest('md5'),
                () => n.digest('md5', new Uint16Array(2)), () => n.hmac('sha1', 'key', abc), () => n.hmac('sha1', abc),
                () => n.randomFill(new ArrayBuffer(8)), () => n.randomFill(), () => n.digest(5, abc),
              ].map((f) => { try { f(); return 'answered'; } catch (e) { return e instanceof TypeError ? 'TypeError' : String(e); } });
              return JSON.stringify({
                md5: hex(n.digest('md5', abc)), sha512: n.digest('sha512', new Uint8Array(0)).length,
                hmac: hex(n.hmac('sha256', new Uint8Array(0), new Uint8Array(0))),
                untouched: filled.subarray(0, 500).every((b) => b === 0), filled: filled.subarray(500).some((b) => b !== 0),
                refusals,
              });
            })()
            """
        let result = try #require(JSString.with(source) { JSEvaluateScript(context, $0, nil, nil, 1, nil) })
        let json = try #require(JSString.string(of: result, in: context))
        let answer = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(answer["md5"] as? String == "900150983cd24fb0d6963f7d28e17f72")
        #expect(answer["sha512"] as? Int == 64)
        #expect(answer["hmac"] as? String == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        #expect(answer["untouched"] as? Bool == true)
        #expect(answer["filled"] as? Bool == true)
        #expect(answer["refusals"] as? [String] == Array(repeating: "TypeError", count: 10))
    }
}
