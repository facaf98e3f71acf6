/// JavaScript run in every script's fresh global context before the script itself. It
/// builds LeanEngine's `AV.Cloud` API and `console`, removes what is not ECMAScript, and
/// leaves one frozen, non-enumerable entry point, `__switchboard`, for the host.
enum Prelude {
    static let source = #"""
    (function (global) {
      'use strict';
      // Taken now: a script that replaces the globals later only confuses itself.
      const parse = JSON.parse, stringify = JSON.stringify, resolve = Promise.resolve.bind(Promise), arrayFrom = Array.from;
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

      function define(name, fn) {
        if (!hookNames.has(name)) throw new TypeError('unknown hook ' + name + '; Switchboard runs IM hooks only');
        if (typeof fn !== 'function') throw new TypeError(name + ' needs a function');
        handlers.set(name, fn);
      }
      const Cloud = { define };
      for (const name of hookNames) {
        Cloud['onIM' + name.charAt(1).toUpperCase() + name.slice(2)] = function (fn) { define(name, fn); };
      }
      Cloud.setHookOptions = function (given) {
        if (given === null || typeof given !== 'object') throw new TypeError('setHookOptions takes an object');
        options = { priority: given.priority, budgetMs: given.budgetMs, onFailure: given.onFailure };
      };
      Cloud.Error = class extends Error {
        constructor(message, extra) { super(message); if (extra && typeof extra === 'object') this.code = extra.code; }
      };

      for (const name of ['WebAssembly', 'ShadowRealm', 'console', 'eval']) delete global[name];
      Object.defineProperty(global, 'console', { value: console, enumerable: false, configurable: false, writable: false });
      Object.defineProperty(global, 'AV', { value: Object.freeze({ Cloud: Object.freeze(Cloud) }), enumerable: false, configurable: false, writable: false });

      const host = Object.freeze({
        // Calls a hook. A result that is not a Promise comes back at once, encoded as a
        // string: 'o' (ok) or 'e' (error), then '1' if console lines wait, then the result
        // JSON or the error text. A Promise comes back as a box for settled() to read once
        // microtasks have run.
        invoke(name, paramsJSON) {
          const fn = handlers.get(name);
          if (!fn) return encode('o', '{}');
          let result;
          try { result = fn({ params: parse(paramsJSON) }); } catch (e) { return encode('e', describeError(e)); }
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
        options() { return stringify(options); },
      });
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
