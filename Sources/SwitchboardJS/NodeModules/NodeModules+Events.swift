extension NodeModules {
    /// `events`: Node's `EventEmitter`.
    static let events = #"""
    'use strict';
    const { nodeError, outOfRange, checkFunction } = require('switchboard:errors');

    // A plain function rather than a class: old code subclasses it with util.inherits and
    // calls EventEmitter.call(this). Listeners live in this._events, an array per event.
    function EventEmitter(options) {
      EventEmitter.init.call(this, options);
    }
    EventEmitter.EventEmitter = EventEmitter;
    EventEmitter.defaultMaxListeners = 10;
    EventEmitter.errorMonitor = Symbol('events.errorMonitor');

    EventEmitter.init = function init() {
      if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
        this._events = Object.create(null);
        this._eventsCount = 0;
      }
      this._maxListeners = this._maxListeners || undefined;
    };

    const proto = EventEmitter.prototype;
    proto._events = undefined;
    proto._eventsCount = 0;
    proto._maxListeners = undefined;

    function checkCount(n, name) {
      if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) throw outOfRange(name, 'a non-negative number', n);
    }

    proto.setMaxListeners = function setMaxListeners(n) {
      checkCount(n, 'n');
      this._maxListeners = n;
      return this;
    };

    proto.getMaxListeners = function getMaxListeners() {
      return this._maxListeners === undefined ? EventEmitter.defaultMaxListeners : this._maxListeners;
    };

    function eventsOf(emitter) {
      if (emitter._events === undefined) {
        emitter._events = Object.create(null);
        emitter._eventsCount = 0;
      }
      return emitter._events;
    }

    function addListener(emitter, type, listener, prepend) {
      checkFunction(listener, 'listener');
      const events = eventsOf(emitter);
      // Announced before it is added, with the function the caller gave (not a once wrapper).
      if (events.newListener !== undefined) emitter.emit('newListener', type, listener.listener ? listener.listener : listener);
      const list = events[type];
      if (list === undefined) {
        events[type] = [listener];
        emitter._eventsCount++;
      } else if (prepend) {
        list.unshift(listener);
      } else {
        list.push(listener);
      }
      const max = emitter.getMaxListeners();
      const count = events[type].length;
      if (max > 0 && count > max && !events[type].warned) {
        events[type].warned = true;
        console.warn('MaxListenersExceededWarning: Possible EventEmitter memory leak detected. ' + count + ' ' + String(type) +
          ' listeners added. Use emitter.setMaxListeners() to increase limit');
      }
      return emitter;
    }

    proto.addListener = function (type, listener) { return addListener(this, type, listener, false); };
    proto.on = proto.addListener;
    proto.prependListener = function prependListener(type, listener) { return addListener(this, type, listener, true); };

    // A wrapper that removes itself before calling the listener; .listener names the original.
    function onceWrapper(emitter, type, listener) {
      let fired = false;
      function wrapper(...args) {
        if (fired) return undefined;
        fired = true;
        emitter.removeListener(type, wrapper);
        return listener.apply(emitter, args);
      }
      wrapper.listener = listener;
      return wrapper;
    }

    proto.once = function once(type, listener) {
      checkFunction(listener, 'listener');
      return addListener(this, type, onceWrapper(this, type, listener), false);
    };
    proto.prependOnceListener = function prependOnceListener(type, listener) {
      checkFunction(listener, 'listener');
      return addListener(this, type, onceWrapper(this, type, listener), true);
    };

    proto.removeListener = function removeListener(type, listener) {
      checkFunction(listener, 'listener');
      const events = eventsOf(this);
      const list = events[type];
      if (list === undefined) return this;
      // The last one added goes first, as in Node.
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i] === listener || list[i].listener === listener) {
          const removed = list[i];
          if (list.length === 1) {
            delete events[type];
            this._eventsCount--;
          } else {
            // A new array, so that an emit under way still calls the listeners it started with.
            events[type] = list.slice(0, i).concat(list.slice(i + 1));
          }
          if (events.removeListener !== undefined) this.emit('removeListener', type, removed.listener || removed);
          break;
        }
      }
      return this;
    };
    proto.off = proto.removeListener;

    proto.removeAllListeners = function removeAllListeners(type) {
      const events = eventsOf(this);
      if (events.removeListener === undefined) {
        if (arguments.length === 0) {
          this._events = Object.create(null);
          this._eventsCount = 0;
        } else if (events[type] !== undefined) {
          delete events[type];
          this._eventsCount--;
        }
        return this;
      }
      // Someone listens for removals: remove one by one, the removeListener listeners last.
      if (arguments.length === 0) {
        for (const key of Reflect.ownKeys(events)) if (key !== 'removeListener') this.removeAllListeners(key);
        this.removeAllListeners('removeListener');
        this._events = Object.create(null);
        this._eventsCount = 0;
        return this;
      }
      const list = events[type];
      if (list !== undefined) for (let i = list.length - 1; i >= 0; i--) this.removeListener(type, list[i]);
      return this;
    };

    proto.emit = function emit(type, ...args) {
      const events = eventsOf(this);
      if (type === 'error' && events[EventEmitter.errorMonitor] !== undefined) this.emit(EventEmitter.errorMonitor, ...args);
      const list = events[type];
      if (list === undefined) {
        if (type !== 'error') return false;
        const error = args[0];
        if (error instanceof Error) throw error;
        const shown = require('util').inspect(error);
        const unhandled = nodeError(Error, 'ERR_UNHANDLED_ERROR', 'Unhandled error. (' + shown + ')');
        unhandled.context = error;
        throw unhandled;
      }
      for (const listener of list.slice()) listener.apply(this, args);
      return true;
    };

    proto.listeners = function listeners(type) {
      const list = eventsOf(this)[type];
      return list === undefined ? [] : list.map((listener) => listener.listener || listener);
    };

    proto.rawListeners = function rawListeners(type) {
      const list = eventsOf(this)[type];
      return list === undefined ? [] : list.slice();
    };

    proto.listenerCount = function listenerCount(type) {
      const list = eventsOf(this)[type];
      return list === undefined ? 0 : list.length;
    };

    proto.eventNames = function eventNames() {
      return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
    };

    EventEmitter.listenerCount = function listenerCount(emitter, type) {
      return emitter.listenerCount(type);
    };

    // EventEmitter.once(emitter, name): a Promise of the arguments of the next such event,
    // rejected by an 'error' event first.
    EventEmitter.once = function once(emitter, type) {
      return new Promise((resolve, reject) => {
        const onError = (error) => {
          emitter.removeListener(type, onEvent);
          reject(error);
        };
        const onEvent = (...args) => {
          if (type !== 'error') emitter.removeListener('error', onError);
          resolve(args);
        };
        emitter.once(type, onEvent);
        if (type !== 'error') emitter.once('error', onError);
      });
    };

    module.exports = EventEmitter;
    """#
}
