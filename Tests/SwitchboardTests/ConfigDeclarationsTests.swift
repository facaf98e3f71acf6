import Foundation
import Testing

@testable import SwitchboardServer

/// The settings declared once (`ServerConfig.settings`): the file's keys are checked against
/// them, and the reference in `docs/configuration.md` is made from them.
@Suite(.storeBlind) struct ConfigDeclarationsTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    @Test func aKeyNoSettingDeclaresIsAnErrorNamingTheNearestKnownOne() throws {
        let refusals = [
            "push:\n  vivo:\n    appId: 10004\n    appKey: k\n    appSecrt: s\n": "config: unknown key push.vivo.appSecrt (did you mean appSecret?)",
            "limts:\n  maxMembers: 5\n": "config: unknown key limts (did you mean limits?)",
            "hooks:\n  remote:\n    - name: a\n      url: http://127.0.0.1:1\n      hookKey: k\n      breaker: { failures: 1, cooldowMs: 5 }\n":
                "config: unknown key hooks.remote[0].breaker.cooldowMs (did you mean cooldownMs?)",
            "hooks:\n  points:\n    _messageReceived: { budget: 5 }\n": "config: unknown key hooks.points._messageReceived.budget (did you mean budgetMs?)",
            "server:\n  colour: blue\n": "config: unknown key server.colour (known here: host, port, logLevel, publicURL)",
            "limits:\n  maxMembers: many\n": "limits.maxMembers: expected an integer",
            "limits: 5\n": "limits: expected a mapping",
        ]
        for (yaml, message) in refusals {
            #expect(throws: ConfigError.self, "\(yaml)") { try ConfigText.load(yaml) }
            do {
                _ = try ConfigText.load(yaml)
            } catch let error as ConfigError {
                #expect(error.description == message)
            }
        }
        // Free names stay free: script environment, handler names, declared message types.
        let config = try ConfigText.load("hooks:\n  env: { ANY_NAME: x }\n  handlers:\n    my-filter: { enabled: false }\nmessageTypes:\n  declared: { 7: [a] }\n")
        #expect(config.scriptEnvironment == ["ANY_NAME": "x"] && config.hooks.handlers["my-filter"]?.enabled == false)
    }

    @Test func theReferenceInTheDocsIsTheOneTheDeclarationsMake() throws {
        let path = Self.root + "/docs/configuration.md"
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let updated = try #require(ConfigReference.updating(document), "docs/configuration.md lacks the markers \(ConfigReference.startMarker) and \(ConfigReference.endMarker)")
        #expect(updated == document, "docs/configuration.md's table of settings differs from the declarations: run `swift run switchboard config reference --update docs/configuration.md`")
        let paths = ServerConfig.settings.flatMap(\.keys).map(\.path)
        #expect(Set(paths).count == paths.count, "a key declared twice")
    }

    /// A property of `ServerConfig` is a setting of the file: one no declaration sets could
    /// not be configured, nor would the reference list it.
    @Test func everyPropertyIsSetByADeclaration() {
        // `\ServerConfig.hooks.points` describes itself so; its first name is the property.
        let declared = Set(ServerConfig.settings.flatMap(\.properties).map { "\($0)".split(separator: ".")[1] })
        let properties = Mirror(reflecting: ServerConfig()).children.compactMap(\.label)
        #expect(properties.count > 40)
        #expect(properties.filter { !declared.contains(Substring($0)) } == [])
    }

    /// The shipped config loads with no unknown key (`ConfigAndCLITests`); its keys that are
    /// commented out, examples of what may be set, are declared too.
    @Test func theShippedConfigsCommentedOutKeysAreDeclared() throws {
        let text = try String(contentsOfFile: Self.root + "/config/switchboard.yaml", encoding: .utf8)
        var parents: [(indent: Int, key: String)] = []
        var commented = 0
        for line in text.split(separator: "\n") {
            // `  host: ...`, or `  # postgres:` and `  #   url: ...`: a key at the indentation it has uncommented.
            guard let match = line.wholeMatch(of: /( *)(# ( *))?(- )?([A-Za-z_][A-Za-z0-9_-]*):( .*)?/) else { continue }
            let indent = match.1.count + (match.3?.count ?? 0) + (match.4?.count ?? 0)
            parents.removeAll { $0.indent >= indent }
            parents.append((indent, String(match.5)))
            let path = parents.map(\.key).joined(separator: ".")
            #expect(ConfigSchema.declared.declares(path), "config/switchboard.yaml: \(path)")
            if match.2 != nil { commented += 1 }
        }
        #expect(commented > 40)
    }
}
