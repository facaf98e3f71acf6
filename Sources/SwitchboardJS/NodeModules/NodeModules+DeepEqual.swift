extension NodeModules {
    /// `switchboard:deep-equal`: Node's deep equality, strict (assert.deepStrictEqual,
    /// util.isDeepStrictEqual) and loose (assert.deepEqual), for the modules that need it.
    static let deepEqual = #"""
    'use strict';
    const tag = (value) => Object.prototype.toString.call(value);

    // `strict`: same prototypes, Object.is for primitives; loose: == for primitives, prototypes
    // ignored. `seen` pairs objects already being compared, so cycles end.
    function equal(a, b, strict, seen) {
      if (a === b) return a !== 0 || !strict || Object.is(a, b);
      if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
        if (strict) return Object.is(a, b);
        // Loosely, primitives compare with ==, and NaN equals NaN.
        return (typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null) && (a == b || (a !== a && b !== b));
      }
      if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
      if (tag(a) !== tag(b)) return false;
      if (Array.isArray(a) !== Array.isArray(b)) return false;
      const known = seen.get(a);
      if (known !== undefined && known.has(b)) return true;
      if (known === undefined) seen.set(a, new Set([b])); else known.add(b);

      if (a instanceof Date && a.getTime() !== b.getTime()) return false;
      if (a instanceof RegExp && (a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex)) return false;
      if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
      if (ArrayBuffer.isView(a)) {
        if (a.length !== b.length) return false;
        for (let index = 0; index < a.length; index++) if (!Object.is(a[index], b[index]) && !(!strict && a[index] == b[index])) return false;
      }
      for (const Boxed of [Number, String, Boolean]) {
        if (a instanceof Boxed && !Object.is(a.valueOf(), b.valueOf())) return false;
      }
      if (a instanceof Map) {
        if (a.size !== b.size) return false;
        for (const [key, value] of a) {
          if (!b.has(key) || !equal(value, b.get(key), strict, seen)) return false;
        }
      }
      if (a instanceof Set) {
        if (a.size !== b.size) return false;
        outer: for (const item of a) {
          if (b.has(item)) continue;
          if (typeof item !== 'object' || item === null) return false;
          for (const other of b) if (equal(item, other, strict, seen)) continue outer;
          return false;
        }
      }
      const keysA = Object.keys(a), keysB = Object.keys(b);
      if (keysA.length !== keysB.length) return false;
      for (const key of keysA) {
        if (!Object.prototype.hasOwnProperty.call(b, key) || !equal(a[key], b[key], strict, seen)) return false;
      }
      if (strict) {
        const symbols = (object) => Object.getOwnPropertySymbols(object).filter((symbol) => Object.prototype.propertyIsEnumerable.call(object, symbol));
        const symbolsA = symbols(a), symbolsB = symbols(b);
        if (symbolsA.length !== symbolsB.length) return false;
        for (const symbol of symbolsA) if (!equal(a[symbol], b[symbol], strict, seen)) return false;
      }
      return true;
    }

    module.exports = {
      isDeepStrictEqual: (a, b) => equal(a, b, true, new Map()),
      isDeepEqual: (a, b) => equal(a, b, false, new Map()),
    };
    """#
}
