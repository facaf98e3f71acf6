extension Prelude {
    /// `require`: CommonJS as Node does it, over a project's files.
    static let modules = #"""
      // CommonJS as Node does it, over the files of a project folder (paths relative to the
      // folder). LeanEngine files start with require('leanengine') or one of its older names.
      const avModules = new Set(['leanengine', 'leancloud-storage', 'avoscloud-sdk', 'avoscloud-sdk/lib/av', 'leancloud-realtime']);
      const sources = new Map();
      const modules = new Map();
      let project = '';
      function normalize(path) {
        const parts = [];
        for (const part of path.split('/')) {
          if (part === '' || part === '.') continue;
          if (part === '..') { if (parts.length === 0) return null; parts.pop(); } else parts.push(part);
        }
        return parts.join('/');
      }
      function dirname(path) { const slash = path.lastIndexOf('/'); return slash < 0 ? '' : path.slice(0, slash); }
      function join(dir, path) { return normalize(dir === '' ? path : dir + '/' + path); }
      function fileAt(base) {
        if (base === null) return null;
        for (const candidate of [base, base + '.js', base + '.json']) if (sources.has(candidate)) return candidate;
        const manifest = sources.get(join(base, 'package.json'));
        if (manifest !== undefined) {
          let main;
          try { main = parse(manifest).main; } catch (e) { main = undefined; }
          if (typeof main === 'string') {
            const target = join(base, main);
            if (target !== null) for (const candidate of [target, target + '.js', join(target, 'index.js')]) if (sources.has(candidate)) return candidate;
          }
        }
        for (const index of ['index.js', 'index.json']) if (sources.has(join(base, index))) return join(base, index);
        return null;
      }
      function resolveModule(name, fromDir) {
        if (name.startsWith('./') || name.startsWith('../') || name === '.' || name === '..') return fileAt(join(fromDir, name));
        if (name.startsWith('/')) return fileAt(normalize(name));
        for (let dir = fromDir; ; dir = dirname(dir)) {
          const found = fileAt(join(dir, 'node_modules/' + name));
          if (found !== null) return found;
          if (dir === '') break;
        }
        // Old cloud code requires by paths from the project's root: require('cloud/mchat').
        return fileAt(normalize(name));
      }
      function requiringSite() {
        const frame = String(new Error().stack || '').split('\n')[2] || '';
        return frame.replace(/^[^@]*@/, '').replace(/:\d+$/, '');
      }
      function requireFrom(fromDir) {
        return function require(name) {
          if (typeof name !== 'string') throw new TypeError('require takes a module name');
          if (avModules.has(name)) return AV;
          const path = resolveModule(name, fromDir);
          if (path === null) {
            const at = requiringSite();
            throw new Error("module '" + name + "' cannot be loaded in a hook script" + (at ? ' (required at ' + at + ')' : ''));
          }
          return loadModule(path);
        };
      }
      function loadModule(path) {
        const cached = modules.get(path);
        if (cached) return cached.exports;  // a cycle sees what is exported so far, as in Node
        const module = { exports: {}, id: path, filename: path, loaded: false };
        modules.set(path, module);
        if (path.endsWith('.json')) {
          module.exports = parse(sources.get(path));
        } else {
          const wrapper = compileModule(sources.get(path), project + '/' + path);
          const dir = dirname(path);
          wrapper.call(module.exports, module.exports, requireFrom(dir), module, path, dir);
        }
        module.loaded = true;
        return module.exports;
      }
      const require = requireFrom('');
      const module = { exports: {} };
    """#
}
