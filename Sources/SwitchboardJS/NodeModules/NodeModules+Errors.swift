extension NodeModules {
    /// `switchboard:errors`: errors as Node's core modules throw them, shared by the modules.
    static let errors = #"""
    'use strict';
    // Node's core modules throw the usual classes with a `code` naming the case, which code
    // tests (e.code === 'ERR_INVALID_ARG_TYPE'); String(error) shows the code as Node's do.
    function nodeError(Base, code, message) {
      const error = new Base(message);
      error.code = code;
      Object.defineProperty(error, 'toString', {
        value() { return this.name + ' [' + this.code + ']: ' + this.message; },
        writable: true, configurable: true, enumerable: false,
      });
      return error;
    }

    // What a message says was received instead, in Node's words.
    function received(value) {
      if (value === null || value === undefined) return 'Received ' + value;
      if (typeof value === 'function') return 'Received function ' + (value.name || '<anonymous>');
      if (typeof value === 'object') {
        const name = value.constructor && value.constructor.name;
        return name ? 'Received an instance of ' + name : 'Received ' + String(value);
      }
      let shown = typeof value === 'string' ? value : String(value);
      if (shown.length > 28) shown = shown.slice(0, 25) + '...';
      if (typeof value === 'string') shown = "'" + shown + "'";
      if (typeof value === 'bigint') shown += 'n';
      return 'Received type ' + typeof value + ' (' + shown + ')';
    }

    // `expected` completes "must be": 'of type string', 'an instance of Buffer or Uint8Array'.
    function invalidArgType(name, expected, value) {
      return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + name + '" argument must be ' + expected + '. ' + received(value));
    }

    // `range` completes "It must be": '>= 0 and <= 255', 'an integer'.
    function outOfRange(name, range, value) {
      return nodeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "' + name + '" is out of range. It must be ' + range + '. Received ' + String(value));
    }

    function checkString(value, name) {
      if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value);
    }

    function checkFunction(value, name) {
      if (typeof value !== 'function') throw invalidArgType(name, 'of type function', value);
    }

    module.exports = { nodeError, invalidArgType, outOfRange, checkString, checkFunction };
    """#
}
