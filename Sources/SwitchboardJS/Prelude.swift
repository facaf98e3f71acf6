/// JavaScript run in every script's fresh global context before the script itself. It
/// builds LeanEngine's `AV.Cloud` API and `console`, removes what is not ECMAScript, and
/// leaves one frozen, non-enumerable entry point, `__switchboard`, for the host.
enum Prelude {
    /// The name its code runs under, in stacks and errors.
    static let file = "prelude"

    static let source = #"""
    (function (global) {
      'use strict';
      // Taken now: a script that replaces the globals later only confuses itself.
      const parse = JSON.parse, stringify = JSON.stringify, resolve = Promise.resolve.bind(Promise), arrayFrom = Array.from;
      // The host's module compiler, out of the scripts' reach.
      const compileModule = global.__compileModule;
      delete global.__compileModule;
      const hookNames = new Set([
        '_messageReceived', '_receiversOffline', '_messageSent', '_messageUpdate',
        '_conversationStart', '_conversationStarted', '_conversationAdd', '_conversationAdded',
        '_conversationRemove', '_conversationRemoved', '_conversationUpdate', '_clientOnline', '_clientOffline',
      ]);
      const handlers = new Map();
      let options = {};
      const logs = [];
      const maxLogLines = 100;
      const maxLogLength = 2000;

      function describe(value) {
        if (typeof value === 'string') return value;
        try { const json = stringify(value); return json === undefined ? String(value) : json; } catch (e) { return String(value); }
      }
      function writer(level) {
        return function (...args) {
          if (logs.length < maxLogLines) logs.push([level, args.map(describe).join(' ').slice(0, maxLogLength)]);
        };
      }
      const console = Object.freeze({
        log: writer('info'), info: writer('info'), debug: writer('debug'), warn: writer('warning'), error: writer('error'),
      });

      // What a LeanEngine file declares beyond IM hooks loads, and is listed as not run.
      const inert = [];
      const notRunNames = new Set(['_rtmClientSign']);
      function define(name, fn) {
        if (typeof name !== 'string') throw new TypeError('AV.Cloud.define needs a name');
        if (typeof fn !== 'function') throw new TypeError(name + ' needs a function');
        if (hookNames.has(name)) { handlers.set(name, fn); return; }
        if (name.charAt(0) === '_' && !notRunNames.has(name)) throw new TypeError('unknown hook ' + name + '; Switchboard runs IM hooks only');
        inert.push('function ' + name);
      }
      function notAvailable(what) {
        return new Error(what + ' is not available in hook scripts; call your LeanEngine app as a remote hook for it');
      }
      const Cloud = { define };
      for (const name of hookNames) {
        Cloud['onIM' + name.charAt(1).toUpperCase() + name.slice(2)] = function (fn) { define(name, fn); };
      }
      for (const name of ['beforeSave', 'afterSave', 'beforeUpdate', 'afterUpdate', 'beforeDelete', 'afterDelete']) {
        Cloud[name] = function (className) { inert.push(name + ' ' + (typeof className === 'string' ? className : (className && className.className) || '?')); };
      }
      for (const name of ['onVerified', 'onLogin', 'onAuthData', 'onInsight']) {
        Cloud[name] = function (kind) { inert.push(name + (typeof kind === 'string' ? ' ' + kind : '')); };
      }
      for (const name of ['run', 'rpc', 'enqueue', 'requestSmsCode', 'verifySmsCode']) {
        Cloud[name] = function () { return Promise.reject(notAvailable('AV.Cloud.' + name)); };
      }
      Cloud.useMasterKey = function () {};
      Cloud.setHookOptions = function (given) {
        if (given === null || typeof given !== 'object') throw new TypeError('setHookOptions takes an object');
        options = { priority: given.priority, budgetMs: given.budgetMs, onFailure: given.onFailure };
      };
      Cloud.Error = class extends Error {
        constructor(message, extra) { super(message); if (extra && typeof extra === 'object') this.code = extra.code; }
      };

      // What a call asks the server (a _Conversation query): asked when the call has run
      // out of other work, answered before its Promise jobs go on.
      const questions = [];
      const awaiting = new Map();
      let nextQuestion = 0;
      function ask(kind, request) {
        return new Promise((succeed, fail) => {
          const id = ++nextQuestion;
          awaiting.set(id, { succeed, fail });
          questions.push({ id, kind, request });
        });
      }

    \#(http)
      Cloud.httpRequest = httpRequest;

      // Storage classes load (files declare them at the top), and fail when used; only
      // _Conversation is read, from Switchboard's own store.
      class AVObject {
        constructor(className, attributes) {
          this.className = typeof className === 'string' ? className : this.constructor.className;
          this.attributes = Object.assign({}, typeof className === 'object' ? className : attributes);
        }
        get(key) { return this.attributes[key]; }
        set(key, value) { if (typeof key === 'object') Object.assign(this.attributes, key); else this.attributes[key] = value; return this; }
        save() { return Promise.reject(notAvailable('Saving ' + this.className)); }
        fetch() {
          if (this.className !== '_Conversation') return Promise.reject(notAvailable('Fetching ' + this.className));
          return new AVQuery('_Conversation').get(this.id).then((found) => {
            Object.assign(this.attributes, found.attributes);
            this.createdAt = found.createdAt;
            this.updatedAt = found.updatedAt;
            return this;
          });
        }
        destroy() { return Promise.reject(notAvailable('Deleting ' + this.className)); }
        static extend(className) {
          const name = typeof className === 'string' ? className : className && className.className;
          const Extended = class extends AVObject { constructor(attributes) { super(name, attributes); } };
          Extended.className = name;
          return Extended;
        }
        static createWithoutData(className, id) { const object = new AVObject(className); object.id = id; return object; }
      }
      function conversation(json) {
        const object = new AVObject('_Conversation');
        object.id = json.objectId;
        for (const key of Object.keys(json)) if (key !== 'objectId') object.attributes[key] = json[key];
        object.createdAt = new Date(json.createdAt);
        object.updatedAt = new Date(json.updatedAt);
        return object;
      }
      class AVQuery {
        constructor(objectClass) {
          this.className = typeof objectClass === 'string' ? objectClass : objectClass && objectClass.className;
          this._where = {}; this._limit = 100; this._skip = 0; this._order = []; this._unsupported = [];
        }
        _condition(key, operator, value) {
          const current = this._where[key];
          this._where[key] = Object.assign(current && typeof current === 'object' && !Array.isArray(current) ? current : {}, { [operator]: value });
          return this;
        }
        equalTo(key, value) { this._where[key] = value; return this; }
        notEqualTo(key, value) { return this._condition(key, '$ne', value); }
        containedIn(key, values) { return this._condition(key, '$in', values); }
        notContainedIn(key, values) { return this._condition(key, '$nin', values); }
        containsAll(key, values) { return this._condition(key, '$all', values); }
        exists(key) { return this._condition(key, '$exists', true); }
        doesNotExist(key) { return this._condition(key, '$exists', false); }
        greaterThan(key, value) { return this._condition(key, '$gt', value); }
        greaterThanOrEqualTo(key, value) { return this._condition(key, '$gte', value); }
        lessThan(key, value) { return this._condition(key, '$lt', value); }
        lessThanOrEqualTo(key, value) { return this._condition(key, '$lte', value); }
        sizeEqualTo(key, size) { return this._condition(key, '$size', size); }
        limit(count) { this._limit = count; return this; }
        skip(count) { this._skip = count; return this; }
        ascending(key) { this._order = [key]; return this; }
        descending(key) { this._order = ['-' + key]; return this; }
        addAscending(key) { this._order.push(key); return this; }
        addDescending(key) { this._order.push('-' + key); return this; }
        find() {
          if (this.className !== '_Conversation') return Promise.reject(notAvailable('Querying ' + this.className));
          if (this._unsupported.length > 0) return Promise.reject(new Error(this._unsupported.join(', ') + ' is not supported in _Conversation queries'));
          const request = { where: this._where, limit: this._limit, skip: this._skip };
          if (this._order.length > 0) request.order = this._order.join(',');
          return ask('conversations', request).then((found) => found.map(conversation));
        }
        first() {
          const saved = this._limit;
          this._limit = 1;
          const found = this.find();
          this._limit = saved;
          return found.then((list) => list[0]);
        }
        get(id) {
          return this.equalTo('objectId', id).first().then((found) => found || Promise.reject(Object.assign(new Error('Object not found.'), { code: 101 })));
        }
        count() { return this.find().then((list) => list.length); }
      }
      // Text conditions as LeanCloud's SDKs send them: quoted literals in a $regex.
      const quote = (text) => '\\Q' + String(text).split('\\E').join('\\E\\\\E\\Q') + '\\E';
      AVQuery.prototype.contains = function (key, text) { return this._condition(key, '$regex', quote(text)); };
      AVQuery.prototype.startsWith = function (key, text) { return this._condition(key, '$regex', '^' + quote(text)); };
      AVQuery.prototype.endsWith = function (key, text) { return this._condition(key, '$regex', quote(text) + '$'); };
      AVQuery.prototype.matches = function (key, regex, modifiers) {
        const isRegExp = regex instanceof RegExp;
        this._condition(key, '$regex', isRegExp ? regex.source : String(regex));
        const options = isRegExp ? regex.flags.replace(/[^ims]/g, '') : (typeof modifiers === 'string' ? modifiers : '');
        return options === '' ? this : this._condition(key, '$options', options);
      };
      for (const name of ['include', 'select', 'matchesQuery', 'near', 'withinKilometers']) {
        AVQuery.prototype[name] = function () { this._unsupported.push(name); return this; };
      }
      for (const name of ['each', 'destroyAll']) {
        AVQuery.prototype[name] = function () { return Promise.reject(notAvailable('AV.Query#' + name)); };
      }
      // The callback-era helpers of AV.Promise, on a Promise of its own.
      class AVPromise extends Promise {
        static as(value) { return AVPromise.resolve(value); }
        static error(error) { return AVPromise.reject(error); }
        static when(...promises) { return AVPromise.all(promises.length === 1 && Array.isArray(promises[0]) ? promises[0] : promises); }
        always(fn) { return this.then(fn, fn); }
        done(fn) { return this.then(fn); }
        fail(fn) { return this.catch(fn); }
      }
      const AV = {
        Cloud: Object.freeze(Cloud), Object: AVObject, Query: AVQuery, Promise: AVPromise,
        init() {}, initialize() {}, setProduction() {}, _config: {},
      };
      Object.freeze(AV);

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

      for (const name of ['WebAssembly', 'ShadowRealm', 'console', 'eval']) delete global[name];
      const fixed = (value) => ({ value, enumerable: false, configurable: false, writable: false });
      Object.defineProperty(global, 'console', fixed(console));
      Object.defineProperty(global, 'AV', fixed(AV));
      Object.defineProperty(global, 'require', fixed(require));
      Object.defineProperty(global, 'fetch', fixed(fetch));
      // Assignable, as in a CommonJS module: files set module.exports or exports.x.
      global.module = module;
      global.exports = module.exports;
      global.__production = true;
      // process.env holds what the operator put in hooks.env, nothing of the server's own.
      const env = {};
      Object.defineProperty(global, 'process', fixed(Object.freeze({ env })));

      const host = Object.freeze({
        // Calls a hook. A result that is not a Promise comes back at once, encoded as a
        // string: 'o' (ok) or 'e' (error), then '1' if console lines wait, then the result
        // JSON or the error text. A Promise comes back as a box for settled() to read once
        // microtasks have run.
        invoke(name, paramsJSON) {
          const fn = handlers.get(name);
          if (!fn) return encode('o', '{}');
          let result;
          try { result = answer(fn, { params: parse(paramsJSON) }); } catch (e) { return encode('e', describeError(e)); }
          if (result === null || (typeof result !== 'object' && typeof result !== 'function') || typeof result.then !== 'function') {
            return settle(result);
          }
          const box = { done: null };
          resolve(result).then((value) => { box.done = settle(value); }, (e) => { box.done = encode('e', describeError(e)); });
          return box;
        },
        settled(box) { return box.done; },
        drainLogs() { return logs.splice(0, logs.length); },
        hooks() { return arrayFrom(handlers.keys()); },
        inert() { return inert.slice(); },
        setEnv(json) { Object.assign(env, parse(json)); Object.freeze(env); },
        takeQuestions() { return stringify(questions.splice(0, questions.length)); },
        answer(json) {
          for (const answer of parse(json)) {
            const waiter = awaiting.get(answer.id);
            if (!waiter) continue;
            awaiting.delete(answer.id);
            if (answer.error !== undefined) waiter.fail(new Error(answer.error)); else waiter.succeed(answer.result);
          }
        },
        // A project folder: its files by path, then its entry module run.
        runProject(name, filesJSON, entry) {
          project = name;
          const files = parse(filesJSON);
          for (const path of Object.keys(files)) sources.set(path, files[path]);
          loadModule(entry);
        },
        options() { return stringify(options); },
      });
      // LeanEngine's two styles: a handler of two parameters answers through
      // response.success / response.error, any other returns its result or a Promise of it.
      function answer(fn, request) {
        if (fn.length < 2) return fn(request);
        return new Promise((succeed, fail) => {
          fn(request, Object.freeze({ success: (value) => succeed(value), error: (error) => fail(error) }));
        });
      }
      function encode(state, text) { return state + (logs.length > 0 ? '1' : '0') + text; }
      function settle(value) {
        try { return encode('o', stringify(value === undefined ? {} : value)); } catch (e) { return encode('e', describeError(e)); }
      }
      function describeError(e) {
        if (e instanceof Error) return String(e.message || e) + (e.stack ? '\n' + e.stack : '');
        return describe(e);
      }
      Object.defineProperty(global, '__switchboard', { value: host, enumerable: false, configurable: false, writable: false });
    })(globalThis);
    """#
}
