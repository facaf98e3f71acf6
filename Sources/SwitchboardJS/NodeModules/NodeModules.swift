import CJavaScriptCore

/// Node's core modules as cloud code uses them, each the body of a CommonJS module. The
/// prelude's `require` compiles one the first time a script asks for it, so a VM pays only for
/// the modules its script uses. Names starting `switchboard:` are the modules' private helpers:
/// the modules can require them, scripts cannot.
enum NodeModules {
    /// The global through which the prelude reads the sources; it deletes it before any script runs.
    static let globalName = "__nodeModuleSource"

    private static let sources: [String: String] = [
        "assert": assert,
        "buffer": buffer,
        "crypto": crypto,
        "events": events,
        "path": path,
        "querystring": querystring,
        "url": url,
        "util": util,
        "switchboard:codecs": codecs,
        "switchboard:deep-equal": deepEqual,
        "switchboard:errors": errors,
        "switchboard:inspect": inspect,
        "switchboard:punycode": punycode,
        "switchboard:url-parser": urlParser,
        "switchboard:whatwg-url": whatwgURL,
    ]

    /// A module's source by its name without `node:`.
    static func source(named name: String) -> String? {
        sources[name]
    }

    /// Every name, as a JavaScript array literal, for the prelude to know them without asking.
    static let namesLiteral = "[" + sources.keys.sorted().map { "'\($0)'" }.joined(separator: ", ") + "]"

    /// Installs `__nodeModuleSource(name)` as a deletable global of `context`.
    static func install(in context: JSGlobalContextRef) {
        JSString.with(globalName) { name in
            let function = JSObjectMakeFunctionWithCallback(context, name, sourceCallback)
            JSObjectSetProperty(context, JSContextGetGlobalObject(context), name, function, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
        }
    }

    /// `(name)`: the module's source, or undefined.
    private static let sourceCallback: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, _ in
        guard let context, let given = JSString.strings(count, arguments, in: context), given.count == 1,
              let text = NodeModules.source(named: given[0])
        else { return JSValueMakeUndefined(context) }
        return JSString.with(text) { JSValueMakeString(context, $0) }
    }
}
