extension NodeModules {
    /// `querystring`: Node's legacy query string parser and serializer.
    static let querystring = #"""
    'use strict';
    const codecs = require('switchboard:codecs');
    const { nodeError } = require('switchboard:errors');

    function hexValue(code) {
      if (code >= 48 && code <= 57) return code - 48;
      if (code >= 65 && code <= 70) return code - 55;
      if (code >= 97 && code <= 102) return code - 87;
      return -1;
    }

    // Percent-decoding byte by byte, for what decodeURIComponent refuses: a bad escape stays
    // as it is and, as in Node, a character past one byte keeps only its low byte.
    function unescapedBytes(s, decodeSpaces) {
      const bytes = new Uint8Array(s.length);
      let count = 0;
      for (let i = 0; i < s.length; i++) {
        const code = s.charCodeAt(i);
        if (code === 43 && decodeSpaces) { bytes[count++] = 32; continue; }
        if (code === 37 && i + 2 < s.length) {
          const high = hexValue(s.charCodeAt(i + 1)), low = hexValue(s.charCodeAt(i + 2));
          if (high >= 0 && low >= 0) {
            bytes[count++] = (high << 4) | low;
            i += 2;
            continue;
          }
        }
        bytes[count++] = code & 0xff;
      }
      return bytes.subarray(0, count);
    }

    function unescapeBuffer(s, decodeSpaces) {
      const bytes = unescapedBytes(String(s), decodeSpaces);
      return require('buffer').Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    }

    function unescape(s, decodeSpaces) {
      try {
        return decodeURIComponent(s);
      } catch (e) {
        const bytes = unescapedBytes(String(s), decodeSpaces);
        return codecs.utf8.text(bytes, 0, bytes.length);
      }
    }

    function escape(value) {
      const string = typeof value === 'string' ? value : String(value);
      try {
        return encodeURIComponent(string);
      } catch (e) {
        throw nodeError(URIError, 'ERR_INVALID_URI', 'URI malformed');
      }
    }

    // '+' is a space (%20 to a custom decoder). The default decoding runs only where there is
    // a %XX escape, so that other text stays exactly as written; when it fails, unescape
    // decodes byte by byte.
    function decoded(text, decode, force) {
      const custom = decode !== unescape;
      const spaced = text.includes('+') ? text.replace(/\+/g, custom ? '%20' : ' ') : text;
      if (!custom && !force && !/%[0-9a-fA-F]{2}/.test(spaced)) return spaced;
      try {
        return decode(spaced);
      } catch (e) {
        return unescape(spaced, true);
      }
    }

    // Repeated keys collect their values in an array, in order. The result has no prototype,
    // so that keys such as __proto__ are ordinary keys.
    function parse(query, sep, eq, options) {
      const result = Object.create(null);
      if (typeof query !== 'string' || query.length === 0) return result;
      const separator = sep ? String(sep) : '&';
      const equals = eq ? String(eq) : '=';
      const maxKeys = options && typeof options.maxKeys === 'number' ? options.maxKeys : 1000;
      const decode = options && typeof options.decodeURIComponent === 'function' ? options.decodeURIComponent : unescape;
      let pairs = query.split(separator);
      // Empty pairs count toward maxKeys too.
      if (maxKeys > 0 && pairs.length > maxKeys) pairs = pairs.slice(0, maxKeys);
      for (const pair of pairs) {
        if (pair.length === 0) continue;
        const at = pair.indexOf(equals);
        const keyText = at < 0 ? pair : pair.slice(0, at);
        const key = decoded(keyText, decode, false);
        // As in Node, a key with two escapes or more gets its value decoded whatever it holds.
        const value = at < 0 ? '' : decoded(pair.slice(at + equals.length), decode, /%[0-9a-fA-F]{2}.*%[0-9a-fA-F]{2}/.test(keyText));
        const existing = result[key];
        if (existing === undefined) result[key] = value;
        else if (Array.isArray(existing)) existing.push(value);
        else result[key] = [existing, value];
      }
      return result;
    }

    function primitiveText(value) {
      switch (typeof value) {
        case 'string': return value;
        case 'number': return Number.isFinite(value) ? String(value) : '';
        case 'bigint': return String(value);
        case 'boolean': return value ? 'true' : 'false';
        default: return '';
      }
    }

    function stringify(object, sep, eq, options) {
      if (object === null || typeof object !== 'object') return '';
      const separator = sep ? String(sep) : '&';
      const equals = eq ? String(eq) : '=';
      const encode = options && typeof options.encodeURIComponent === 'function' ? options.encodeURIComponent : escape;
      const fields = [];
      for (const key of Object.keys(object)) {
        const value = object[key];
        const prefix = encode(primitiveText(key)) + equals;
        if (Array.isArray(value)) {
          for (const item of value) fields.push(prefix + encode(primitiveText(item)));
        } else {
          fields.push(prefix + encode(primitiveText(value)));
        }
      }
      return fields.join(separator);
    }

    module.exports = { unescapeBuffer, unescape, escape, stringify, encode: stringify, parse, decode: parse };
    """#
}
