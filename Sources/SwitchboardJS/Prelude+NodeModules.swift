extension Prelude {
    /// Node's core modules for `require`, and the globals `Buffer`, `URL`, `URLSearchParams`.
    static let nodeModules = #"""
      // Node's core modules (NodeModules), each compiled the first time it is required. They
      // come before a project's own files, as in Node: node_modules/crypto cannot replace
      // crypto. Names under switchboard: are for the modules alone, and so are the natives.
      const nodeModuleSource = global.__nodeModuleSource;
      const nativeCrypto = global.__nativeCrypto;
      delete global.__nodeModuleSource;
      delete global.__nativeCrypto;
      const coreNames = new Set(\#(NodeModules.namesLiteral));
      const coreModules = new Map();
      const defineProperty = Object.defineProperty;
      // The exports of core module `name` (with or without node:), or undefined if there is none.
      function coreModule(name, forCore) {
        const bare = name.startsWith('node:') ? name.slice(5) : name;
        if (!coreNames.has(bare) || (bare.startsWith('switchboard:') && !forCore)) return undefined;
        let module = coreModules.get(bare);
        if (module === undefined) {
          module = { exports: {} };
          coreModules.set(bare, module);
          const wrapper = compileModule(nodeModuleSource(bare), 'node:' + bare);
          wrapper.call(module.exports, module.exports, requireInCore, module, 'node:' + bare, 'node:');
        }
        return module.exports;
      }
      function requireInCore(name) {
        if (name === 'switchboard:native-crypto') return nativeCrypto;
        const exports = coreModule(name, true);
        if (exports === undefined) throw new Error("no core module '" + name + "'");
        return exports;
      }
      // Node's globals Buffer, URL and URLSearchParams, each compiled the first time a script
      // reads it. Assignable, as in Node.
      const assignable = (value) => ({ value, writable: true, configurable: true, enumerable: false });
      for (const [name, moduleName] of [['Buffer', 'buffer'], ['URL', 'url'], ['URLSearchParams', 'url']]) {
        defineProperty(global, name, {
          get() {
            const value = coreModule(moduleName, false)[name];
            defineProperty(global, name, assignable(value));
            return value;
          },
          set(value) { defineProperty(global, name, assignable(value)); },
          configurable: true,
          enumerable: false,
        });
      }
    """#
}
