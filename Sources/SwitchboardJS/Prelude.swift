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
        // Starts a hook call; the returned box settles as microtasks run.
        invoke(name, paramsJSON) {
          const box = { state: 'pending', json: undefined };
          const fn = handlers.get(name);
          if (!fn) { box.state = 'ok'; box.json = '{}'; return box; }
          const request = { params: parse(paramsJSON) };
          let result;
          try { result = fn(request); } catch (e) { box.state = 'error'; box.json = describeError(e); return box; }
          resolve(result).then(
            (value) => { box.state = 'ok'; box.json = stringify(value === undefined ? {} : value); },
            (e) => { box.state = 'error'; box.json = describeError(e); });
          return box;
        },
        // [state, result JSON, whether console lines wait to be drained], or null while pending.
        settled(box) { return box.state === 'pending' ? null : [box.state, box.json === undefined ? 'null' : box.json, logs.length > 0]; },
        drainLogs() { return logs.splice(0, logs.length); },
        hooks() { return arrayFrom(handlers.keys()); },
        options() { return stringify(options); },
      });
      function describeError(e) {
        if (e instanceof Error) return String(e.message || e) + (e.stack ? '\n' + e.stack : '');
        return describe(e);
      }
      Object.defineProperty(global, '__switchboard', { value: host, enumerable: false, configurable: false, writable: false });
    })(globalThis);
    """#
}
