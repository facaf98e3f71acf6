import CJavaScriptCore

/// A project's files, kept on the Swift side of its VM: the prelude's `require` asks here
/// where a name leads (`ModuleResolution`, the rules the server used to gather the files) and
/// for a module's source when it first loads it. Installed as a deletable global the prelude
/// takes before any script runs, as `ModuleCompiler` is.
enum ProjectModules {
    static let globalName = "__projectModules"

    /// What the VM's object holds; released with it.
    private final class Files {
        let resolution: ModuleResolution

        init(_ files: [String: String]) {
            resolution = ModuleResolution { files[$0] }
        }
    }

    /// Installs `{resolve(name, directory), source(path)}` over `files` in `context`.
    static func install(_ files: [String: String], in context: JSGlobalContextRef) {
        var definition = kJSClassDefinitionEmpty
        definition.finalize = { object in
            guard let data = JSObjectGetPrivate(object) else { return }
            Unmanaged<Files>.fromOpaque(data).release()
        }
        let filesClass = JSClassCreate(&definition)
        defer { JSClassRelease(filesClass) }
        let object = JSObjectMake(context, filesClass, Unmanaged.passRetained(Files(files)).toOpaque())
        for (name, callback) in [("resolve", resolve), ("source", source)] {
            JSString.with(name) { nameRef in
                let function = JSObjectMakeFunctionWithCallback(context, nameRef, callback)
                JSObjectSetProperty(context, object, nameRef, function, JSPropertyAttributes(kJSPropertyAttributeReadOnly), nil)
            }
        }
        JSString.with(globalName) { name in
            JSObjectSetProperty(context, JSContextGetGlobalObject(context), name, object, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
        }
    }

    /// The files behind `this`, for calls made on the installed object only.
    private static func files(_ object: JSObjectRef?) -> Files? {
        guard let object, let data = JSObjectGetPrivate(object) else { return nil }
        return Unmanaged<Files>.fromOpaque(data).takeUnretainedValue()
    }

    /// `(name, directory)`: what `name` leads to from `directory`, as `ModuleTarget.encoded`.
    private static let resolve: JSObjectCallAsFunctionCallback = { context, _, this, count, arguments, _ in
        guard let context, let files = files(this), let given = JSString.strings(count, arguments, in: context), given.count == 2 else {
            return JSValueMakeNull(context)
        }
        return JSString.with(files.resolution.target(of: given[0], from: given[1]).encoded) { JSValueMakeString(context, $0) }
    }

    /// `(path)`: the file's text, or undefined.
    private static let source: JSObjectCallAsFunctionCallback = { context, _, this, count, arguments, _ in
        guard let context, let files = files(this), let given = JSString.strings(count, arguments, in: context), given.count == 1,
              let text = files.resolution.contents(given[0])
        else { return JSValueMakeUndefined(context) }
        return JSString.with(text) { JSValueMakeString(context, $0) }
    }
}
