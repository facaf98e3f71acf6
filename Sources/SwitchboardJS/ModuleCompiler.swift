import CJavaScriptCore

/// The one way JavaScript of a project is compiled after its VM is set up: the prelude's
/// `require` hands a module's source here and gets back its CommonJS wrapper function.
/// Scripts cannot reach it (the prelude takes it off the global object before any script
/// runs), so `eval` stays off for them.
enum ModuleCompiler {
    static let globalName = "__compileModule"

    /// Installs the compiler as a deletable global of `context`.
    static func install(in context: JSGlobalContextRef) {
        JSString.with(globalName) { name in
            let function = JSObjectMakeFunctionWithCallback(context, name, compile)
            JSObjectSetProperty(context, JSContextGetGlobalObject(context), name, function, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
        }
    }

    /// `(source, path)`: evaluates the module wrapped as Node wraps it, on the source's own
    /// first line so that line numbers stay the file's. An ES module is first rewritten as
    /// CommonJS, line for line.
    private static let compile: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, exception in
        guard let context, let given = JSString.strings(count, arguments, in: context), given.count == 2 else { return JSValueMakeUndefined(context) }
        let (source, path) = (given[0], given[1])
        let wrapped = "(function (exports, require, module, __filename, __dirname) {" + (ModuleSyntax.commonJS(source) ?? source) + "\n})"
        return JSString.with(wrapped) { sourceRef in
            JSString.with(path) { pathRef in
                JSEvaluateScript(context, sourceRef, nil, pathRef, 1, exception)
            }
        }
    }
}
