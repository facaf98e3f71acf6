extension NodeModules {
    /// `switchboard:inspect`: `util.inspect`, on its own for `events` and `util`.
    static let inspect = #"""
    'use strict';
    // Node's layout: objects on one line while they fit in breakLength and hold fewer than
    // `compact` levels of nesting, else one entry a line; cycles as <ref *1> ... [Circular *1];
    // nesting past `depth` as [Object]. Long arrays are not laid out in columns as Node does.
    const customInspect = Symbol.for('nodejs.util.inspect.custom');

    const defaultOptions = {
      showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false, maxArrayLength: 100,
      maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false,
    };

    // Brand checks that a Symbol.toStringTag cannot fool: the method throws on anything else.
    function branded(method) {
      return (value) => {
        try { method.call(value); return true; } catch (e) { return false; }
      };
    }
    const getter = (prototype, name) => Object.getOwnPropertyDescriptor(prototype, name).get;
    const typedArrayTag = getter(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
    const objectTag = (value) => Object.prototype.toString.call(value).slice(8, -1);
    const types = {
      isDate: branded(Date.prototype.getTime),
      isRegExp: branded(getter(RegExp.prototype, 'global')),
      isMap: branded(getter(Map.prototype, 'size')),
      isSet: branded(getter(Set.prototype, 'size')),
      isWeakMap: branded(WeakMap.prototype.has),
      isWeakSet: branded(WeakSet.prototype.has),
      isArrayBuffer: branded(getter(ArrayBuffer.prototype, 'byteLength')),
      isDataView: branded(getter(DataView.prototype, 'byteLength')),
      isTypedArray: (value) => typedArrayTag.call(value) !== undefined,
      isUint8Array: (value) => typedArrayTag.call(value) === 'Uint8Array',
      isArrayBufferView: (value) => ArrayBuffer.isView(value),
      isPromise: (value) => value instanceof Promise,
      isNativeError: typeof Error.isError === 'function' ? Error.isError : (value) => value instanceof Error,
      isAsyncFunction: (value) => typeof value === 'function' && objectTag(value).startsWith('Async'),
      isGeneratorFunction: (value) => typeof value === 'function' && objectTag(value).endsWith('GeneratorFunction'),
      isGeneratorObject: (value) => objectTag(value) === 'Generator',
      isStringObject: (value) => typeof value === 'object' && branded(String.prototype.valueOf)(value),
      isNumberObject: (value) => typeof value === 'object' && branded(Number.prototype.valueOf)(value),
      isBooleanObject: (value) => typeof value === 'object' && branded(Boolean.prototype.valueOf)(value),
      isSymbolObject: (value) => typeof value === 'object' && branded(Symbol.prototype.valueOf)(value),
      isBigIntObject: (value) => typeof value === 'object' && branded(BigInt.prototype.valueOf)(value),
    };
    types.isAnyArrayBuffer = types.isArrayBuffer;
    types.isBoxedPrimitive = (value) => types.isStringObject(value) || types.isNumberObject(value) ||
      types.isBooleanObject(value) || types.isSymbolObject(value) || types.isBigIntObject(value);

    function inspect(value, options) {
      const ctx = Object.assign({}, inspect.defaultOptions);
      if (typeof options === 'boolean') {
        // The old signature: inspect(value, showHidden, depth, colors).
        ctx.showHidden = options;
        if (arguments.length > 2) ctx.depth = arguments[2];
      } else if (options !== null && typeof options === 'object') {
        Object.assign(ctx, options);
      }
      if (ctx.depth === null) ctx.depth = Infinity;
      ctx.seen = [];
      ctx.circular = new Map();
      ctx.indentation = 0;
      ctx.currentDepth = 0;
      return formatValue(ctx, value, 0);
    }
    inspect.custom = customInspect;
    inspect.defaultOptions = defaultOptions;

    const escapes = new Map([[8, '\\b'], [9, '\\t'], [10, '\\n'], [12, '\\f'], [13, '\\r'], [92, '\\\\']]);
    const needsEscape = /[\x00-\x1f\x27\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

    // Single quotes, unless the string holds some and double quotes or backticks do better.
    function quote(string) {
      let mark = "'";
      if (string.includes("'")) {
        if (!string.includes('"')) mark = '"';
        else if (!string.includes('`') && !string.includes('${')) mark = '`';
      }
      if (!needsEscape.test(string)) return mark + string + mark;
      let result = '';
      for (let i = 0; i < string.length; i++) {
        const code = string.charCodeAt(i);
        const pairs = code >= 0xd800 && code <= 0xdbff && i + 1 < string.length &&
          string.charCodeAt(i + 1) >= 0xdc00 && string.charCodeAt(i + 1) <= 0xdfff;
        if (pairs) { result += string[i] + string[i + 1]; i++; }
        else if (string[i] === mark) result += '\\' + mark;
        else if (escapes.has(code)) result += escapes.get(code);
        else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) result += '\\x' + code.toString(16).toUpperCase().padStart(2, '0');
        else if (code >= 0xd800 && code <= 0xdfff) result += '\\u' + code.toString(16);
        else result += string[i];
      }
      return mark + result + mark;
    }

    function formatPrimitive(ctx, value) {
      switch (typeof value) {
        case 'string': {
          const over = value.length - ctx.maxStringLength;
          if (over <= 0) return quote(value);
          return quote(value.slice(0, ctx.maxStringLength)) + '... ' + over + ' more character' + (over > 1 ? 's' : '');
        }
        case 'number': return Object.is(value, -0) ? '-0' : String(value);
        case 'bigint': return value + 'n';
        default: return String(value);
      }
    }

    function formatValue(ctx, value, depth) {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return formatPrimitive(ctx, value);
      if (ctx.customInspect) {
        const custom = value[customInspect];
        if (typeof custom === 'function' && custom !== inspect) {
          const options = Object.assign({}, ctx, { depth: ctx.depth - depth });
          const result = custom.call(value, ctx.depth - depth, options, inspect);
          if (result !== value) return typeof result === 'string' ? result : formatValue(ctx, result, depth);
        }
      }
      if (ctx.seen.includes(value)) {
        if (!ctx.circular.has(value)) ctx.circular.set(value, ctx.circular.size + 1);
        return '[Circular *' + ctx.circular.get(value) + ']';
      }
      return formatRaw(ctx, value, depth);
    }

    function constructorName(value) {
      for (let object = value; object !== null; object = Object.getPrototypeOf(object)) {
        const descriptor = Object.getOwnPropertyDescriptor(object, 'constructor');
        if (descriptor !== undefined && typeof descriptor.value === 'function' && descriptor.value.name !== '') return descriptor.value.name;
      }
      return null;
    }

    // Node's prefix: 'Foo ', 'Foo(2) [Map] ', '[Object: null prototype] '.
    function prefix(constructor, tag, fallback, size) {
      if (constructor === null) {
        return '[' + fallback + size + ': null prototype] ' + (tag !== '' && tag !== fallback ? '[' + tag + '] ' : '');
      }
      return constructor + size + ' ' + (tag !== '' && tag !== constructor ? '[' + tag + '] ' : '');
    }

    const isIndex = (key) => typeof key === 'string' && /^(0|[1-9][0-9]*)$/.test(key);

    function keysOf(value, showHidden) {
      const keys = showHidden ? Object.getOwnPropertyNames(value) : Object.keys(value);
      for (const symbol of Object.getOwnPropertySymbols(value)) {
        if (showHidden || Object.prototype.propertyIsEnumerable.call(value, symbol)) keys.push(symbol);
      }
      return keys;
    }

    function functionBase(fn) {
      const source = Function.prototype.toString.call(fn);
      if (/^class\b/.test(source)) {
        const parent = Object.getPrototypeOf(fn);
        return '[class ' + (fn.name || '(anonymous)') + (parent && parent.name ? ' extends ' + parent.name : '') + ']';
      }
      const tag = objectTag(fn);
      const type = tag.endsWith('Function') ? tag : 'Function';
      return '[' + type + (fn.name ? ': ' + fn.name : ' (anonymous)') + ']';
    }

    // JavaScriptCore's stack has no header and lists frames as name@place; shown as Node does.
    function errorBase(error) {
      let header;
      try { header = String(error); } catch (e) { header = Error.prototype.toString.call(error); }
      const stack = typeof error.stack === 'string' ? error.stack.trim() : '';
      if (stack === '') return '[' + header + ']';
      const frames = stack.split('\n').map((frame) => {
        const at = frame.lastIndexOf('@');
        return '    at ' + (at <= 0 ? frame.slice(at + 1) : frame.slice(0, at) + ' (' + frame.slice(at + 1) + ')');
      });
      return header + '\n' + frames.join('\n');
    }

    function formatRaw(ctx, value, depth) {
      let keys = keysOf(value, ctx.showHidden);
      const constructor = constructorName(value);
      // A tag that is an own enumerable property is listed with the keys instead.
      const rawTag = value[Symbol.toStringTag];
      const ownTag = Object.prototype.propertyIsEnumerable.call(value, Symbol.toStringTag);
      const tag = typeof rawTag === 'string' && !ownTag ? rawTag : '';
      let base = '';
      let braces;
      let entries = () => [];
      let isArrayLike = false;
      if (Array.isArray(value)) {
        keys = keys.filter((key) => !isIndex(key) && (key !== 'length' || ctx.showHidden));
        const start = constructor !== 'Array' || tag !== '' ? prefix(constructor, tag, 'Array', '(' + value.length + ')') : '';
        braces = [start + '[', ']'];
        if (value.length === 0 && keys.length === 0) return braces[0] + ']';
        entries = () => formatArray(ctx, value, depth);
        isArrayLike = true;
      } else if (types.isTypedArray(value)) {
        keys = keys.filter((key) => !isIndex(key));
        braces = [prefix(constructor, tag, typedArrayTag.call(value), '(' + value.length + ')') + '[', ']'];
        if (value.length === 0 && keys.length === 0) return braces[0] + ']';
        entries = () => {
          const shown = Array.from(value.subarray(0, ctx.maxArrayLength), (n) => formatPrimitive(ctx, n));
          return withRest(shown, value.length - shown.length);
        };
        isArrayLike = true;
      } else if (types.isMap(value)) {
        braces = [prefix(constructor, tag, 'Map', '(' + value.size + ')') + '{', '}'];
        if (value.size === 0 && keys.length === 0) return braces[0] + '}';
        entries = () => Array.from(value, ([key, item]) => nested(ctx, key, depth) + ' => ' + nested(ctx, item, depth));
      } else if (types.isSet(value)) {
        braces = [prefix(constructor, tag, 'Set', '(' + value.size + ')') + '{', '}'];
        if (value.size === 0 && keys.length === 0) return braces[0] + '}';
        entries = () => Array.from(value, (item) => nested(ctx, item, depth));
      } else if (types.isWeakMap(value) || types.isWeakSet(value)) {
        braces = [prefix(constructor, tag, types.isWeakMap(value) ? 'WeakMap' : 'WeakSet', '') + '{', '}'];
        entries = () => ['<items unknown>'];
      } else if (types.isPromise(value)) {
        // A Promise's state cannot be read from JavaScript.
        braces = [prefix(constructor, tag, 'Promise', '') + '{', '}'];
        entries = () => ['<unknown>'];
      } else if (types.isArrayBuffer(value)) {
        const hex = Array.from(new Uint8Array(value, 0, Math.min(value.byteLength, ctx.maxArrayLength)), (byte) => byte.toString(16).padStart(2, '0'));
        const more = value.byteLength - hex.length;
        braces = [prefix(constructor, tag, 'ArrayBuffer', '') + '{', '}'];
        entries = () => ['[Uint8Contents]: <' + hex.join(' ') + (more > 0 ? ' ... ' + more + ' more byte' + (more > 1 ? 's' : '') : '') + '>',
          'byteLength: ' + value.byteLength];
      } else {
        braces = ['{', '}'];
        if (typeof value === 'function') base = functionBase(value);
        else if (types.isRegExp(value)) base = RegExp.prototype.toString.call(value);
        else if (types.isDate(value)) base = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
        else if (types.isNativeError(value)) {
          base = errorBase(value);
          keys = keys.filter((key) => key !== 'stack' && key !== 'message');
        } else if (types.isBoxedPrimitive(value)) {
          const primitive = value.valueOf();
          const type = typeof primitive === 'bigint' ? 'BigInt' : typeof primitive === 'symbol' ? 'Symbol' : constructorName(Object(primitive));
          base = '[' + type + ': ' + formatPrimitive(Object.assign({}, ctx, { maxStringLength: Infinity }), primitive) + ']';
          if (typeof primitive === 'string') keys = keys.filter((key) => !isIndex(key) && key !== 'length');
        } else if (constructor !== 'Object' || tag !== '') {
          braces[0] = prefix(constructor, tag, 'Object', '') + '{';
        }
        if (keys.length === 0) return base !== '' ? base : braces[0] + '}';
      }
      if (depth > ctx.depth) {
        return '[' + (Array.isArray(value) ? 'Array' : constructor === null ? 'Object: null prototype' : constructor || tag || 'Object') + ']';
      }
      ctx.seen.push(value);
      ctx.currentDepth = depth;
      const output = entries();
      for (const key of keys) output.push(formatProperty(ctx, value, key, depth));
      ctx.seen.pop();
      if (ctx.sorted && !isArrayLike) output.sort(typeof ctx.sorted === 'function' ? ctx.sorted : undefined);
      const result = reduce(ctx, output, base, braces, depth);
      return ctx.circular.has(value) ? '<ref *' + ctx.circular.get(value) + '> ' + result : result;
    }

    // A value inside another, indented one more step.
    function nested(ctx, value, depth) {
      ctx.indentation += 2;
      const text = formatValue(ctx, value, depth + 1);
      ctx.indentation -= 2;
      return text;
    }

    function withRest(output, more) {
      if (more > 0) output.push('... ' + more + ' more item' + (more > 1 ? 's' : ''));
      return output;
    }

    function formatArray(ctx, array, depth) {
      const output = [];
      let i = 0;
      for (; i < array.length && output.length < ctx.maxArrayLength; i++) {
        if (Object.prototype.hasOwnProperty.call(array, i)) {
          output.push(formatProperty(ctx, array, i, depth, true));
          continue;
        }
        let end = i + 1;
        while (end < array.length && !Object.prototype.hasOwnProperty.call(array, end)) end++;
        const holes = end - i;
        output.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
        i = end - 1;
      }
      return withRest(output, array.length - i);
    }

    function formatProperty(ctx, object, key, depth, bare) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key) || { value: object[key], enumerable: true };
      let text;
      if (descriptor.get !== undefined || descriptor.set !== undefined) {
        text = descriptor.get === undefined ? '[Setter]' : descriptor.set === undefined ? '[Getter]' : '[Getter/Setter]';
      } else {
        text = nested(ctx, descriptor.value, depth);
      }
      if (bare) return text;
      let name;
      if (typeof key === 'symbol') name = '[' + String(key) + ']';
      else if (/^[a-zA-Z_][a-zA-Z_0-9]*$/.test(key)) name = key;
      else name = quote(String(key));
      return (descriptor.enumerable ? name : '[' + name + ']') + ': ' + text;
    }

    function fitsOnOneLine(ctx, output, start, base) {
      let total = output.length + start;
      if (total + output.length > ctx.breakLength) return false;
      for (const entry of output) {
        total += entry.length;
        if (total > ctx.breakLength) return false;
      }
      return base === '' || !base.includes('\n');
    }

    function reduce(ctx, output, base, braces, depth) {
      const lead = base === '' ? '' : base + ' ';
      const combine = ctx.compact === true || (typeof ctx.compact === 'number' && ctx.compact >= 1 && ctx.currentDepth - depth < ctx.compact);
      if (combine) {
        const start = output.length + ctx.indentation + braces[0].length + base.length + 10;
        if (fitsOnOneLine(ctx, output, start, base)) {
          const joined = output.join(', ');
          if (!joined.includes('\n')) return lead + braces[0] + ' ' + joined + ' ' + braces[1];
        }
      }
      const indentation = '\n' + ' '.repeat(ctx.indentation);
      return lead + braces[0] + indentation + '  ' + output.join(',' + indentation + '  ') + indentation + braces[1];
    }

    module.exports = { inspect, types };
    """#
}
