extension Prelude {
    /// `require`: CommonJS as Node does it, over a project's files, which the host keeps
    /// (`ProjectModules`); a module that cannot be had loads as a stand-in that refuses use.
    static let modules = #"""
      const projectModules = global.__projectModules;
      delete global.__projectModules;
      const modules = new Map();
      let project = '';
      // Code run while a module's body runs is setting up, even when the module is first
      // required inside a hook call; after loading, anything else runs in a call.
      let loadingModules = 0;
      let callsStarted = false;
      let servesWeb = false;
      const inCall = () => callsStarted && loadingModules === 0;

      // A stand-in for a module that cannot be had. While modules load, whatever is done with
      // it does nothing and gives the stand-in back, so set-up like app.use(...) runs; in a
      // hook call, the first use throws, naming the module and where it was required.
      function standIn(name, problem, requiredAt) {
        const message = "module '" + name + "' " + problem + (requiredAt ? ' (required at ' + requiredAt + ')' : '');
        const refuseInCall = () => { if (inCall()) throw refused(new Error(message)); };
        refuseInCall();
        const use = () => { refuseInCall(); return stub; };
        const label = () => '[module ' + name + ': ' + problem + ']';
        const stub = new Proxy(function () {}, {
          get(target, key) {
            if (key === Symbol.toPrimitive || key === 'toString' || key === 'valueOf' || key === 'inspect') return label;
            // Not a Promise, not an ES module, not iterable: code that probes for these goes on.
            if (typeof key === 'symbol' || key === 'then' || key === '__esModule') return undefined;
            return use();
          },
          apply: use,
          construct: use,
          set() { use(); return true; },
          has() { return false; },
          deleteProperty() { return true; },
        });
        return stub;
      }
      function requireFrom(fromDir) {
        return function require(name) {
          if (typeof name !== 'string') throw new TypeError('require takes a module name');
          const target = projectModules.resolve(name, fromDir);
          const colon = target.indexOf(':');
          const kind = colon < 0 ? target : target.slice(0, colon), detail = target.slice(colon + 1);
          if (kind === 'file') return detail.includes('node_modules/') ? loadPackageModule(name, detail) : loadModule(detail);
          if (kind === 'core') return coreModule(detail, false);
          if (kind === 'sdk') return AV;
          const site = scriptSite(new Error().stack);
          if (kind === 'web') {
            if (!servesWeb) inert.push('web routes (' + name + (site ? ', required at ' + site : '') + ')');
            servesWeb = true;
            return standIn(name, 'serves web routes, which Switchboard does not', site);
          }
          return standIn(name, detail, site);
        };
      }
      // A loose script's one file is named as the script; a project's files by their folder.
      const moduleName = (path) => (path === project ? path : project + '/' + path);
      function loadModule(path) {
        const cached = modules.get(path);
        if (cached) return cached.exports;  // a cycle sees what is exported so far, as in Node
        const module = { exports: {}, id: path, filename: path, loaded: false };
        modules.set(path, module);
        const source = projectModules.source(path);
        loadingModules++;
        try {
          if (path.endsWith('.json')) {
            module.exports = parse(source);
          } else {
            const wrapper = compileModule(source, moduleName(path));
            const dir = path.slice(0, Math.max(path.lastIndexOf('/'), 0));
            // As absolute paths with the project's folder as the root: require(__dirname + '/x')
            // and path.join(__dirname, ...) lead where they did under Node.
            wrapper.call(module.exports, module.exports, requireFrom(dir), module, '/' + path, '/' + dir);
          }
        } finally {
          loadingModules--;
        }
        module.loaded = true;
        return module.exports;
      }
      // A package that throws while it loads (one that needs eval, or Node itself) is one that
      // cannot be had: it becomes a stand-in, listed as not run. The project's own files
      // failing still fail the load, where their author sees it.
      function loadPackageModule(name, path) {
        try {
          return loadModule(path);
        } catch (e) {
          if (inCall()) throw e;
          modules.delete(path);
          const site = scriptSite(e.stack);
          const problem = 'failed to load: ' + String(e.message || e) + (site ? ' at ' + site : '');
          inert.push('package ' + name + ' (' + problem + ')');
          return standIn(name, problem, scriptSite(new Error().stack));
        }
      }
      const require = requireFrom('');
      const module = { exports: {} };
    """#
}
