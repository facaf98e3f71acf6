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
      // Refusals are logged past a chatty script's console lines, up to this many more.
      const maxRefusals = 20;

      // Node prints an error as its stack, which starts with its message.
      function describeError(e) {
        if (e instanceof Error) return String(e.message || e) + (e.stack ? '\n' + e.stack : '');
        return describe(e);
      }
      function describe(value) {
        if (typeof value === 'string') return value;
        if (value instanceof Error) return describeError(value);
        try { const json = stringify(value); return json === undefined ? String(value) : json; } catch (e) { return String(value); }
      }
      function write(level, text, limit = maxLogLines) {
        if (logs.length < limit) logs.push([level, text.slice(0, maxLogLength)]);
      }
      function writer(level) {
        return function (...args) { write(level, args.map(describe).join(' ')); };
      }
      const console = Object.freeze({
        log: writer('info'), info: writer('info'), debug: writer('debug'), warn: writer('warning'), error: writer('error'),
        dir: writer('info'), trace: writer('debug'),
      });

      // Where code of the script is: the first frame of `stack` outside the prelude and the
      // built-in modules, as file:line.
      function scriptSite(stack) {
        for (const frame of String(stack || '').split('\n')) {
          const at = frame.slice(frame.indexOf('@') + 1);
          if (at === '' || at === '[native code]' || at.startsWith('\#(file):') || at.startsWith('node:')) continue;
          return at.replace(/:\d+$/, '');
        }
        return '';
      }
      // A call this server cannot answer is told to the operator even if the script catches
      // the error: logged at the level 'refused' (the server counts those) with where the
      // script made it. `stack` is the call's, when it was made before failing.
      function refused(error, stack) {
        const site = scriptSite(stack === undefined ? error.stack : stack);
        write('refused', (site ? site + ': ' : '') + error.message, maxLogLines + maxRefusals);
        return error;
      }

      // What a LeanEngine file declares beyond IM hooks loads, and is listed as not run.
      const inert = [];
      const notRunNames = new Set(['_rtmClientSign']);
      // define(name, fn), or LeanEngine 3's define(name, options, fn): its options
      // (fetchUser, internal) are about web callers, which hooks do not have.
      function define(name, optionsOrFn, fnAfterOptions) {
        const fn = typeof optionsOrFn === 'function' ? optionsOrFn : fnAfterOptions;
        if (typeof name !== 'string') throw new TypeError('AV.Cloud.define needs a name');
        if (typeof fn !== 'function') throw new TypeError(name + ' needs a function');
        if (hookNames.has(name)) { handlers.set(name, fn); return; }
        if (name.charAt(0) === '_' && !notRunNames.has(name)) throw new TypeError('unknown hook ' + name + '; Switchboard runs IM hooks only');
        inert.push('function ' + name);
      }
      function notAvailable(what) {
        return refused(new Error(what + ' is not available in hook scripts; call your LeanEngine app as a remote hook for it'));
      }
      // The Promise an API call this server cannot answer gives.
      const unavailable = (what) => AVPromise.reject(notAvailable(what));
      const Cloud = { define };
      for (const name of hookNames) {
        Cloud['onIM' + name.charAt(1).toUpperCase() + name.slice(2)] = function (optionsOrFn, fn) { define(name, optionsOrFn, fn); };
      }
      for (const name of ['beforeSave', 'afterSave', 'beforeUpdate', 'afterUpdate', 'beforeDelete', 'afterDelete']) {
        Cloud[name] = function (className) { inert.push(name + ' ' + (typeof className === 'string' ? className : (className && className.className) || '?')); };
      }
      for (const name of ['onVerified', 'onLogin', 'onAuthData', 'onInsight']) {
        Cloud[name] = function (kind) { inert.push(name + (typeof kind === 'string' ? ' ' + kind : '')); };
      }
      for (const name of ['run', 'rpc', 'enqueue', 'requestSmsCode', 'verifySmsCode']) {
        Cloud[name] = function () { return unavailable('AV.Cloud.' + name); };
      }
      Cloud.useMasterKey = function () {};
      Cloud.setHookOptions = function (given) {
        if (given === null || typeof given !== 'object') throw new TypeError('setHookOptions takes an object');
        options = { priority: given.priority, budgetMs: given.budgetMs, onFailure: given.onFailure };
      };
      Cloud.Error = class extends Error {
        constructor(message, extra) { super(message); if (extra && typeof extra === 'object') this.code = extra.code; }
      };

      // What a call asks the server (a storage call, an HTTP request): asked when the call
      // has run out of other work, answered before its Promise jobs go on.
      const questions = [];
      const awaiting = new Map();
      let nextQuestion = 0;
      // `stack` is the script's call, when the question is asked later than it was made.
      function ask(kind, request, stack = new Error().stack) {
        return new Promise((succeed, fail) => {
          const id = ++nextQuestion;
          awaiting.set(id, { succeed, fail: (error, isRefusal) => fail(isRefusal ? refused(error, stack) : error) });
          questions.push({ id, kind, request });
        });
      }

    \#(http)
      Cloud.httpRequest = httpRequest;

    \#(promise)
    \#(storage)
      // LeanEngine's web middleware loads and does nothing: Switchboard serves no web routes.
      const middleware = () => function (request, response, next) { if (typeof next === 'function') next(); };
      for (const name of ['CookieSession', 'HttpsRedirect', 'LeanCloudHeaders']) Cloud[name] = middleware;
      const AV = {
        Cloud: Object.freeze(Cloud), Object: AVObject, Query: AVQuery, Promise: AVPromise, User: AVUser,
        Role: AVObject.extend('_Role'), Installation: AVObject.extend('_Installation'), File: AVFile, GeoPoint: AVGeoPoint,
        ACL: AVACL, Error: AVError, Push: Object.freeze({ send: () => unavailable('AV.Push.send') }),
        express: middleware, koa: middleware,
        // The old SDK carried underscore as AV._; it is the project's or hooks.modulePaths' own.
        get _() { return require('underscore'); },
        init() {}, initialize() {}, setProduction() {}, _config: {},
      };
      Object.freeze(AV);

    \#(modules)
    \#(nodeModules)
      // eval stays, disabled (it throws EvalError): packages that only mention it still load.
      for (const name of ['WebAssembly', 'ShadowRealm', 'console']) delete global[name];
      const fixed = (value) => ({ value, enumerable: false, configurable: false, writable: false });
      Object.defineProperty(global, 'console', fixed(console));
      Object.defineProperty(global, 'AV', fixed(AV));
      Object.defineProperty(global, 'require', fixed(require));
      Object.defineProperty(global, 'fetch', fixed(fetch));
      // Assignable, as in a CommonJS module: files set module.exports or exports.x.
      global.module = module;
      global.exports = module.exports;
      global.__production = true;
      global.global = global;
      // process.env holds what the operator put in hooks.env, nothing of the server's own.
      // Listeners on the process load and are never called: no signal or exit reaches a VM.
      const env = {};
      const process = Object.freeze({
        env, argv: Object.freeze([]), platform: 'linux', cwd: () => '/',
        nextTick(fn, ...args) { resolve().then(() => fn(...args)); },
        on: () => process, once: () => process, off: () => process, removeListener: () => process,
        exit() { throw notAvailable('process.exit'); },
      });
      Object.defineProperty(global, 'process', fixed(process));

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
            if (answer.error === undefined) waiter.succeed(answer.result);
            // A store's answer (101, 305...) has LeanStorage's code; what this server could
            // not do is a refusal, logged even if the script catches it.
            else if (answer.code === undefined) waiter.fail(new Error(answer.error), true);
            else waiter.fail(new AVError(answer.code, answer.error), answer.refused === true);
          }
        },
        // A project folder (or a loose script with packages) named `name`: its entry run.
        runProject(name, entry) {
          project = name;
          loadModule(entry);
        },
        // Loading is over: from now on code runs in hook calls.
        startCalls() { callsStarted = true; },
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
      Object.defineProperty(global, '__switchboard', { value: host, enumerable: false, configurable: false, writable: false });
    })(globalThis);
    """#
}
