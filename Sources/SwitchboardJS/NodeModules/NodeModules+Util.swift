extension NodeModules {
    /// `util`: format, inspect, inherits, promisify and the type checks cloud code uses.
    static let util = #"""
    'use strict';
    const { inspect, types } = require('switchboard:inspect');
    const codecs = require('switchboard:codecs');
    const { nodeError, invalidArgType, checkFunction } = require('switchboard:errors');

    // An object whose toString is JavaScript's own (Object's, Date's, Error's...) is inspected
    // by %s; one with its own toString, or a class's, is converted with it.
    function hasBuiltInToString(value) {
      if (Object.prototype.hasOwnProperty.call(value, 'toString')) return false;
      let object = value;
      do object = Object.getPrototypeOf(object);
      while (object !== null && !Object.prototype.hasOwnProperty.call(object, 'toString'));
      if (object === null) return true;
      const descriptor = Object.getOwnPropertyDescriptor(object, 'constructor');
      const constructor = descriptor && descriptor.value;
      return typeof constructor === 'function' && globalThis[constructor.name] === constructor;
    }

    function formatNumber(number) {
      return Object.is(number, -0) ? '-0' : String(number);
    }

    function formatWithOptions(inspectOptions, ...args) {
      const options = inspectOptions === null || typeof inspectOptions !== 'object' ? {} : inspectOptions;
      const first = args[0];
      let text = '';
      let next = 0;
      if (typeof first === 'string') {
        next = 1;
        let copied = 0;
        for (let i = 0; i < first.length - 1; i++) {
          if (first.charCodeAt(i) !== 37) continue;  // '%'
          const letter = first[i + 1];
          if (letter === '%') {
            text += first.slice(copied, i) + '%';
            copied = i + 2;
            i++;
            continue;
          }
          if (!'sdifjoOc'.includes(letter) || next >= args.length) continue;
          const arg = args[next++];
          let piece;
          switch (letter) {
            case 's':
              if (typeof arg === 'number') piece = formatNumber(arg);
              else if (typeof arg === 'bigint') piece = arg + 'n';
              else if (arg !== null && typeof arg === 'object' && hasBuiltInToString(arg)) {
                piece = inspect(arg, Object.assign({}, options, { depth: 0, colors: false, compact: 3 }));
              } else piece = String(arg);
              break;
            case 'd':
              piece = typeof arg === 'bigint' ? arg + 'n' : typeof arg === 'symbol' ? 'NaN' : formatNumber(Number(arg));
              break;
            case 'i':
              piece = typeof arg === 'bigint' ? arg + 'n' : typeof arg === 'symbol' ? 'NaN' : formatNumber(parseInt(arg));
              break;
            case 'f':
              piece = typeof arg === 'symbol' ? 'NaN' : formatNumber(parseFloat(arg));
              break;
            case 'j':
              try {
                piece = String(JSON.stringify(arg));
              } catch (e) {
                // A cycle is shown as Node shows it; anything else JSON refuses (a BigInt) throws.
                if (!/circular|cyclic/i.test(String(e && e.message))) throw e;
                piece = '[Circular]';
              }
              break;
            case 'o':
              piece = inspect(arg, Object.assign({}, options, { showHidden: true, showProxy: true, depth: 4 }));
              break;
            case 'O':
              piece = inspect(arg, options);
              break;
            default:  // %c: CSS, which a terminal has no use for
              piece = '';
          }
          text += first.slice(copied, i) + piece;
          copied = i + 2;
          i++;
        }
        text += first.slice(copied);
      }
      for (let i = next; i < args.length; i++) {
        const arg = args[i];
        if (i > 0) text += ' ';
        text += typeof arg === 'string' ? arg : inspect(arg, options);
      }
      return text;
    }

    function format(...args) {
      return formatWithOptions(undefined, ...args);
    }

    function inherits(ctor, superCtor) {
      if (ctor === undefined || ctor === null) throw invalidArgType('ctor', 'of type function', ctor);
      if (superCtor === undefined || superCtor === null) throw invalidArgType('superCtor', 'of type function', superCtor);
      if (superCtor.prototype === undefined) throw invalidArgType('superCtor.prototype', 'of type object', superCtor.prototype);
      Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
      Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
    }

    const promisifyCustom = Symbol.for('nodejs.util.promisify.custom');

    // The new function keeps the original's own properties and prototype, as Node's does.
    function copyShape(target, original, changes) {
      Object.setPrototypeOf(target, Object.getPrototypeOf(original));
      const descriptors = Object.getOwnPropertyDescriptors(original);
      if (changes) changes(descriptors);
      return Object.defineProperties(target, descriptors);
    }

    function promisify(original) {
      checkFunction(original, 'original');
      if (original[promisifyCustom] !== undefined) {
        const custom = original[promisifyCustom];
        checkFunction(custom, 'util.promisify.custom');
        return Object.defineProperty(custom, promisifyCustom, { value: custom, configurable: true });
      }
      function promisified(...args) {
        return new Promise((resolve, reject) => {
          Reflect.apply(original, this, args.concat((error, value) => (error ? reject(error) : resolve(value))));
        });
      }
      Object.defineProperty(promisified, promisifyCustom, { value: promisified, configurable: true });
      return copyShape(promisified, original);
    }
    promisify.custom = promisifyCustom;

    function callbackify(original) {
      checkFunction(original, 'original');
      function callbackified(...args) {
        const callback = args.pop();
        checkFunction(callback, 'last argument');
        const failed = (reason) => {
          if (reason) return callback(reason);
          // A callback's first argument must be truthy to mean failure.
          const error = nodeError(Error, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with falsy value');
          error.reason = reason;
          return callback(error);
        };
        Reflect.apply(original, this, args).then((value) => callback(null, value), failed);
      }
      return copyShape(callbackified, original, (descriptors) => {
        if (descriptors.length && typeof descriptors.length.value === 'number') descriptors.length.value++;
        if (descriptors.name && typeof descriptors.name.value === 'string') descriptors.name.value += 'Callbackified';
      });
    }

    // Each code warns once, however many functions carry it.
    const warnedCodes = new Set();
    function deprecate(fn, message, code) {
      checkFunction(fn, 'fn');
      let warned = false;
      function deprecated(...args) {
        if (!warned && !(code !== undefined && warnedCodes.has(code))) {
          warned = true;
          if (code !== undefined) warnedCodes.add(code);
          console.warn((code !== undefined ? '[' + code + '] ' : '') + 'DeprecationWarning: ' + message);
        }
        return new.target ? Reflect.construct(fn, args, new.target) : Reflect.apply(fn, this, args);
      }
      Object.setPrototypeOf(deprecated, fn);
      if (fn.prototype) deprecated.prototype = fn.prototype;
      return deprecated;
    }

    // NODE_DEBUG is not read here: every section's debug logging stays off.
    function debuglog() {
      function debug() {}
      debug.enabled = false;
      return debug;
    }

    class TextEncoder {
      get encoding() { return 'utf-8'; }
      encode(input = '') { return codecs.utf8.bytes(String(input)); }
    }

    const decoderLabels = new Map([
      ['utf-8', 'utf-8'], ['utf8', 'utf-8'], ['unicode-1-1-utf-8', 'utf-8'],
      ['utf-16le', 'utf-16le'], ['utf-16', 'utf-16le'],
    ]);

    // Whole inputs only: decode(bytes, { stream: true }) is refused rather than mis-decoded.
    class TextDecoder {
      constructor(label = 'utf-8', options = {}) {
        const encoding = decoderLabels.get(String(label).trim().toLowerCase());
        if (encoding === undefined) throw nodeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', 'The "' + label + '" encoding is not supported');
        this._encoding = encoding;
        this._fatal = Boolean(options && options.fatal);
        this._ignoreBOM = Boolean(options && options.ignoreBOM);
      }
      get encoding() { return this._encoding; }
      get fatal() { return this._fatal; }
      get ignoreBOM() { return this._ignoreBOM; }
      decode(input, options) {
        if (options && options.stream) throw new TypeError('TextDecoder does not stream in hook scripts');
        let bytes;
        if (input === undefined) bytes = new Uint8Array(0);
        else if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
        else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
        else throw invalidArgType('input', 'an instance of ArrayBuffer or ArrayBufferView', input);
        const utf8 = this._encoding === 'utf-8';
        const bom = utf8 ? bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf : bytes[0] === 0xff && bytes[1] === 0xfe;
        const start = bom && !this._ignoreBOM ? (utf8 ? 3 : 2) : 0;
        const codec = utf8 ? codecs.utf8 : codecs.encoding('utf16le');
        const text = codec.text(bytes, start, bytes.length);
        // Valid UTF-8 is exactly what its decoding encodes back to.
        if (this._fatal && utf8 && !sameBytes(codecs.utf8.bytes(text), bytes.subarray(start))) {
          throw nodeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', 'The encoded data was not valid for encoding utf-8');
        }
        return text;
      }
    }

    function sameBytes(a, b) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
      return true;
    }

    function isBuffer(value) {
      return require('buffer').Buffer.isBuffer(value);
    }

    module.exports = {
      format, formatWithOptions, inspect, inherits, promisify, callbackify, deprecate, debuglog, types,
      TextEncoder, TextDecoder, isBuffer,
      isDeepStrictEqual: require('switchboard:deep-equal').isDeepStrictEqual,
      isArray: Array.isArray,
      isBoolean: (value) => typeof value === 'boolean',
      isNull: (value) => value === null,
      isNullOrUndefined: (value) => value === null || value === undefined,
      isNumber: (value) => typeof value === 'number',
      isString: (value) => typeof value === 'string',
      isSymbol: (value) => typeof value === 'symbol',
      isUndefined: (value) => value === undefined,
      isObject: (value) => value !== null && typeof value === 'object',
      isFunction: (value) => typeof value === 'function',
      isPrimitive: (value) => value === null || (typeof value !== 'object' && typeof value !== 'function'),
      isDate: types.isDate,
      isRegExp: types.isRegExp,
      isError: (value) => types.isNativeError(value) || value instanceof Error,
    };
    """#
}
