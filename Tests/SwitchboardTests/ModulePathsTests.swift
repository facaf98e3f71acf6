import Foundation
import Testing

@testable import SwitchboardJS

/// Packages a project names and does not carry, found in `hooks.modulePaths` as Node's
/// NODE_PATH finds them: Debian's real node-underscore, node-moment and node-lodash.
@Suite struct ModulePathsTests {
    private let hooks = TestServer.temporaryDirectory()
    private static let debian = "/usr/share/nodejs"

    private func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: hooks + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    private func load(_ entry: String, modulePaths: [String] = [debian]) throws -> (ScriptContext, ScriptFolder.Entry) {
        let read = try #require(try ScriptFolder.read(entry, in: hooks, modulePaths: modulePaths))
        return (try ScriptContext(read.source, name: entry, budget: .seconds(2)), read)
    }

    private static let usesThreePackages = """
        var AV = require('leanengine');
        var _ = require('underscore');
        var moment = require('moment');
        var chunk = require('lodash/chunk');
        AV.Cloud.define('_messageReceived', function (request, response) {
          var words = _.uniq(request.params.content.split(' '));
          var day = moment.utc(request.params.timestamp).format('YYYY-MM-DD');
          response.success({ content: day + ' ' + JSON.stringify(chunk(words, 2)) });
        });
        """

    @Test func aProjectUsesPackagesFromTheModulePaths() throws {
        try write("app/cloud.js", Self.usesThreePackages)
        let (script, read) = try load("app")
        #expect(read.missing.isEmpty)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"a b a c","timestamp":1467331200000}"#)
            == .value(#"{"content":"2016-07-01 [[\"a\",\"b\"],[\"c\"]]"}"#))
        // Only what the requires reach comes in: not moment's locales, not all of lodash.
        guard case .project(let files, _) = read.source else {
            Issue.record("no project")
            return
        }
        #expect(!files.keys.contains { $0.hasPrefix("node_modules/moment/locale/") })
        #expect(files.keys.filter { $0.hasPrefix("node_modules/lodash/") }.count < 60)
    }

    /// A web app's front end (megabytes of libraries under static/) is not handed to the VM:
    /// the load used to run past its budget decoding it.
    @Test func onlyWhatTheProjectsRequiresReachIsRead() throws {
        try write("app/cloud.js", "var lib = require('./cloud/lib');\nAV.Cloud.onIMMessageReceived(() => ({ content: lib.name }));")
        try write("app/cloud/lib.js", "exports.name = require('../package.json').name;")
        try write("app/package.json", #"{ "name": "web-app", "main": "server.js" }"#)
        try write("app/static/js/broken.js", "this is not JavaScript {")
        try write("app/test/cloud-test.js", "require('mocha');")
        let (script, read) = try load("app")
        guard case .project(let files, let entry) = read.source else {
            Issue.record("no project")
            return
        }
        #expect(entry == "cloud.js")
        #expect(Set(files.keys) == ["cloud.js", "cloud/lib.js", "package.json"])
        #expect(read.missing.isEmpty)
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"web-app"}"#))
    }

    @Test func aLooseScriptUsesThemToo() throws {
        try write("words.js", Self.usesThreePackages)
        let (script, read) = try load("words.js")
        #expect(read.missing.isEmpty)
        guard case .value(let json) = script.invoke(hook: "_messageReceived", paramsJSON: #"{"content":"x","timestamp":0}"#) else {
            Issue.record("the loose script did not answer")
            return
        }
        #expect(json.contains("1970-01-01"))
    }

    @Test func withoutThemThePackagesAreListedAndTheCallThatUsesOneFailsNamingIt() throws {
        try write("app/cloud.js", Self.usesThreePackages)
        let (script, read) = try load("app", modulePaths: [])
        #expect(read.missing.map { "\($0.module) \($0.file):\($0.line)" } == ["underscore app/cloud.js:2", "moment app/cloud.js:3", "lodash/chunk app/cloud.js:4"])
        #expect(read.missing.allSatisfy { $0.problem == ModuleTarget.notInstalled })
        let message = script.failure(of: "_messageReceived", paramsJSON: #"{"content":"x"}"#)
        #expect(message.contains("module 'underscore' is not installed"))
        #expect(message.contains("required at app/cloud.js:2"))
    }

    @Test func theProjectsOwnNodeModulesComeFirst() throws {
        try write("app/cloud.js", "var _ = require('underscore'); AV.Cloud.onIMMessageReceived(() => ({ content: _.which }));")
        try write("app/node_modules/underscore/index.js", "exports.which = 'vendored';")
        let (script, _) = try load("app")
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"vendored"}"#))
    }

    @Test func theOldSDKsUnderscoreIsTheModulePathsOwn() throws {
        try write("app/cloud.js", "var AV = require('avoscloud-sdk'); AV.Cloud.onIMMessageReceived(() => ({ content: AV._.map([1, 2], (n) => n * 2).join() }));")
        let (script, _) = try load("app")
        #expect(script.invoke(hook: "_messageReceived", paramsJSON: "{}") == .value(#"{"content":"2,4"}"#))
    }

    @Test func aPackageThatCannotRunHereIsAStandInAndTheProjectLoads() throws {
        try write("app/cloud.js", "var AV = require('leanengine');\nvar pool = require('workerpool');\nAV.Cloud.onIMMessageReceived(() => pool.exec('x'));")
        try write("app/node_modules/workerpool/index.js", "var requireFoolWebpack = eval('typeof require !== \\'undefined\\' ? require : null');\nmodule.exports = {};")
        let (script, _) = try load("app")
        #expect(script.inert == ["package workerpool (failed to load: eval and new Function are disabled in hook scripts at app/node_modules/workerpool/index.js:1)"])
        let message = script.failure(of: "_messageReceived")
        #expect(message.contains("module 'workerpool' failed to load"))
        #expect(message.contains("required at app/cloud.js:2"))
    }

    @Test func typeScriptIsRefusedWithWhatToDo() throws {
        try write("loose.ts", "export const x: number = 1;")
        try write("tsapp/cloud.ts", "import AV from 'leanengine';")
        try write("mixed/cloud.js", "var AV = require('leanengine');\nvar lib = require('./lib');")
        try write("mixed/lib.ts", "export default 1;")
        for (entry, file, line) in [("loose.ts", "loose.ts", nil), ("tsapp", "tsapp/cloud.ts", nil), ("mixed", "mixed/cloud.js", 2)] {
            do {
                _ = try ScriptFolder.read(entry, in: hooks)
                Issue.record("\(entry) was read")
            } catch {
                #expect(error.file == file)
                #expect(error.line == line)
                #expect(error.message.contains("compile it to JavaScript first (tsc)"))
            }
        }
        #expect(ScriptFolder.entries(in: hooks) == ["loose.ts", "mixed", "tsapp"])
    }
}
