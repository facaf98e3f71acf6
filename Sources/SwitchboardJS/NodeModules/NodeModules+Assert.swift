extension NodeModules {
    /// `assert`: Node's checks, which npm packages call at load and in their functions.
    /// Messages follow Node's where they are short; deep-equal failures say less than Node's diff.
    static let assert = #"""
    'use strict';
    const { inspect } = require('switchboard:inspect');
    const { isDeepEqual, isDeepStrictEqual } = require('switchboard:deep-equal');

    class AssertionError extends Error {
      constructor(options) {
        const given = options !== null && typeof options === 'object' ? options : {};
        super(given.message !== undefined ? String(given.message) : 'Failed');
        this.name = 'AssertionError';
        this.code = 'ERR_ASSERTION';
        this.actual = given.actual;
        this.expected = given.expected;
        this.operator = given.operator;
        this.generatedMessage = given.generatedMessage === true;
      }
    }

    // Throws for a failed check: `message` given (an Error is thrown as it is), or Node's wording.
    function fail(actual, expected, operator, message, generated) {
      if (message instanceof Error) throw message;
      const generatedMessage = message === undefined;
      throw new AssertionError({ actual, expected, operator, message: generatedMessage ? generated() : message, generatedMessage });
    }
    const show = (value) => inspect(value, { depth: 4 });

    function ok(...args) {
      if (args.length === 0) fail(undefined, true, '==', 'No value argument passed to `assert.ok()`');
      if (!args[0]) fail(args[0], true, '==', args[1], () => 'The expression evaluated to a falsy value');
    }
    const assert = (...args) => ok(...args);

    const checks = {
      equal: (a, b) => a == b || (a !== a && b !== b),
      notEqual: (a, b) => !(a == b || (a !== a && b !== b)),
      strictEqual: (a, b) => Object.is(a, b),
      notStrictEqual: (a, b) => !Object.is(a, b),
      deepEqual: (a, b) => isDeepEqual(a, b),
      notDeepEqual: (a, b) => !isDeepEqual(a, b),
      deepStrictEqual: (a, b) => isDeepStrictEqual(a, b),
      notDeepStrictEqual: (a, b) => !isDeepStrictEqual(a, b),
    };
    const wording = {
      equal: (a, b) => show(a) + ' == ' + show(b),
      notEqual: (a, b) => show(a) + ' != ' + show(b),
      strictEqual: (a, b) => 'Expected values to be strictly equal:\n\n' + show(a) + ' !== ' + show(b) + '\n',
      notStrictEqual: (a, b) => 'Expected "actual" to be strictly unequal to: ' + show(b),
      deepEqual: (a, b) => 'Expected values to be loosely deep-equal:\n\n' + show(a) + '\n\nshould loosely deep-equal\n\n' + show(b),
      notDeepEqual: (a, b) => '"actual" deepEqual "expected": ' + show(a),
      deepStrictEqual: (a, b) => 'Expected values to be strictly deep-equal:\n\n' + show(a) + '\n\nshould equal\n\n' + show(b),
      notDeepStrictEqual: (a, b) => 'Expected "actual" not to be strictly deep-equal to: ' + show(b),
    };
    // Node names the loose (in)equality checks by their operators.
    const operators = { equal: '==', notEqual: '!=' };
    for (const name of Object.keys(checks)) {
      assert[name] = function (actual, expected, message) {
        if (!checks[name](actual, expected)) fail(actual, expected, operators[name] || name, message, () => wording[name](actual, expected));
      };
    }

    // Whether `error` is what `expected` describes: a class, a RegExp over its text, a
    // validation function, or an object of properties to match.
    function matches(error, expected) {
      if (expected === undefined) return true;
      if (expected instanceof RegExp) return expected.test(String(error));
      if (typeof expected === 'function') {
        if (expected.prototype !== undefined && error instanceof expected) return true;
        if (Error.isPrototypeOf(expected) || expected === Error) return false;
        return expected.call({}, error) === true;
      }
      if (expected !== null && typeof expected === 'object') {
        return Object.keys(expected).every((key) => expected[key] instanceof RegExp && typeof error[key] === 'string'
          ? expected[key].test(error[key]) : isDeepStrictEqual(error[key], expected[key]));
      }
      return false;
    }
    function caught(fn) {
      if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function');
      try { fn(); } catch (error) { return { error }; }
      return undefined;
    }
    assert.throws = function (fn, expected, message) {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      const thrown = caught(fn);
      if (!thrown) fail(undefined, expected, 'throws', message === undefined ? 'Missing expected exception.' : message);
      if (!matches(thrown.error, expected)) throw thrown.error;
    };
    assert.doesNotThrow = function (fn, expected, message) {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      const thrown = caught(fn);
      if (thrown && matches(thrown.error, expected)) {
        const text = thrown.error && thrown.error.message;
        fail(thrown.error, expected, 'doesNotThrow', 'Got unwanted exception' + (message ? ': ' + message : '.') + '\nActual message: "' + text + '"');
      }
      if (thrown) throw thrown.error;
    };
    assert.rejects = async function (promiseOrFn, expected, message) {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      try {
        await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
      } catch (error) {
        if (!matches(error, expected)) throw error;
        return;
      }
      fail(undefined, expected, 'rejects', message === undefined ? 'Missing expected rejection.' : message);
    };
    assert.doesNotReject = async function (promiseOrFn, expected, message) {
      try {
        await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
      } catch (error) {
        fail(error, expected, 'doesNotReject', 'Got unwanted rejection.\nActual message: "' + (error && error.message) + '"' + (message ? ' ' + message : ''));
      }
    };
    assert.fail = function (message) {
      fail(undefined, undefined, 'fail', message === undefined ? 'Failed' : message);
    };
    assert.ifError = function (value) {
      if (value !== null && value !== undefined) {
        fail(value, null, 'ifError', 'ifError got unwanted exception: ' + (value && value.message !== undefined ? value.message : show(value)));
      }
    };
    assert.match = function (text, pattern, message) {
      if (typeof text !== 'string' || !pattern.test(text)) {
        fail(text, pattern, 'match', message, () => 'The input did not match the regular expression ' + String(pattern) + '. Input:\n\n' + show(text) + '\n');
      }
    };
    assert.doesNotMatch = function (text, pattern, message) {
      if (typeof text !== 'string' || pattern.test(text)) {
        fail(text, pattern, 'doesNotMatch', message, () => 'The input was expected to not match the regular expression ' + String(pattern) + '. Input:\n\n' + show(text) + '\n');
      }
    };
    assert.ok = ok;
    assert.AssertionError = AssertionError;

    // assert.strict: the loose checks are the strict ones.
    const strict = (...args) => ok(...args);
    Object.assign(strict, assert, {
      equal: assert.strictEqual, notEqual: assert.notStrictEqual,
      deepEqual: assert.deepStrictEqual, notDeepEqual: assert.notDeepStrictEqual,
    });
    strict.strict = strict;
    assert.strict = strict;

    module.exports = assert;
    """#
}
