extension NodeModules {
    /// `switchboard:codecs`: strings to bytes and back in Node's encodings, for `buffer`,
    /// `querystring` and `util`'s TextEncoder/TextDecoder.
    static let codecs = #"""
    'use strict';
    // Each encoding turns a whole string into a Uint8Array (bytes), a byte range back into a
    // string (text), and says how many bytes a string makes (byteLength) without encoding it.
    // Decoding follows Node: hex stops at the first bad pair, base64 reads both alphabets,
    // skips other characters and stops at '=', UTF-8 replaces each bad sequence with U+FFFD.
    // Hex and base64 read only the low byte of each character, as Node does ('\u0161' is 'a').

    // Strings from character codes, a chunk at a time (apply takes only so many arguments).
    function stringFromCodes(codes) {
      let text = '';
      for (let i = 0; i < codes.length; i += 8192) text += String.fromCharCode.apply(null, codes.slice(i, i + 8192));
      return text;
    }

    function bytesOfCodes(string, mask) {
      const bytes = new Uint8Array(string.length);
      for (let i = 0; i < string.length; i++) bytes[i] = string.charCodeAt(i) & mask;
      return bytes;
    }

    function codesOfBytes(bytes, start, end, mask) {
      let text = '';
      for (let i = start; i < end; i += 8192) {
        const chunk = bytes.subarray(i, Math.min(end, i + 8192));
        text += String.fromCharCode.apply(null, mask === 0xff ? chunk : chunk.map((byte) => byte & mask));
      }
      return text;
    }

    // The code point at i, or U+FFFD for a lone surrogate (as Node encodes one).
    function codePointAt(string, i) {
      const unit = string.charCodeAt(i);
      if (unit < 0xd800 || unit > 0xdfff) return unit;
      if (unit <= 0xdbff && i + 1 < string.length) {
        const next = string.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) return 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      }
      return 0xfffd;
    }

    function utf8Length(string) {
      let length = 0;
      for (let i = 0; i < string.length; i++) {
        const point = codePointAt(string, i);
        if (point < 0x80) length += 1;
        else if (point < 0x800) length += 2;
        else if (point < 0x10000) length += 3;
        else { length += 4; i++; }
      }
      return length;
    }

    function utf8Bytes(string) {
      const bytes = new Uint8Array(utf8Length(string));
      let at = 0;
      for (let i = 0; i < string.length; i++) {
        const point = codePointAt(string, i);
        if (point < 0x80) {
          bytes[at++] = point;
        } else if (point < 0x800) {
          bytes[at++] = 0xc0 | (point >> 6);
          bytes[at++] = 0x80 | (point & 0x3f);
        } else if (point < 0x10000) {
          bytes[at++] = 0xe0 | (point >> 12);
          bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
          bytes[at++] = 0x80 | (point & 0x3f);
        } else {
          bytes[at++] = 0xf0 | (point >> 18);
          bytes[at++] = 0x80 | ((point >> 12) & 0x3f);
          bytes[at++] = 0x80 | ((point >> 6) & 0x3f);
          bytes[at++] = 0x80 | (point & 0x3f);
          i++;
        }
      }
      return bytes;
    }

    // The WHATWG decoder: a sequence cut short or out of range becomes one U+FFFD for its
    // longest valid start, and decoding resumes at the byte that broke it.
    function utf8Text(bytes, start, end) {
      const codes = [];
      let text = '';
      let i = start;
      while (i < end) {
        const lead = bytes[i];
        if (lead < 0x80) { codes.push(lead); i++; } else {
          let needed, point;
          if (lead >= 0xc2 && lead <= 0xdf) { needed = 1; point = lead & 0x1f; }
          else if (lead >= 0xe0 && lead <= 0xef) { needed = 2; point = lead & 0x0f; }
          else if (lead >= 0xf0 && lead <= 0xf4) { needed = 3; point = lead & 0x07; }
          else needed = 0;
          // Overlong forms, surrogates and points past U+10FFFF are excluded by the second byte.
          let lower = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
          let upper = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
          let next = i + 1, read = 0;
          while (read < needed && next < end && bytes[next] >= lower && bytes[next] <= upper) {
            point = (point << 6) | (bytes[next] & 0x3f);
            lower = 0x80;
            upper = 0xbf;
            next++;
            read++;
          }
          i = needed === 0 ? i + 1 : next;
          if (needed === 0 || read < needed) codes.push(0xfffd);
          else if (point < 0x10000) codes.push(point);
          else codes.push(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
        }
        if (codes.length >= 8192) { text += stringFromCodes(codes); codes.length = 0; }
      }
      return text + stringFromCodes(codes);
    }

    const hexDigits = '0123456789abcdef';

    function hexValue(code) {
      if (code >= 48 && code <= 57) return code - 48;
      if (code >= 97 && code <= 102) return code - 87;
      if (code >= 65 && code <= 70) return code - 55;
      return -1;
    }

    function hexBytes(string) {
      const bytes = new Uint8Array(string.length >>> 1);
      let count = 0;
      for (; count < bytes.length; count++) {
        const high = hexValue(string.charCodeAt(2 * count) & 0xff), low = hexValue(string.charCodeAt(2 * count + 1) & 0xff);
        if (high < 0 || low < 0) break;
        bytes[count] = (high << 4) | low;
      }
      return count === bytes.length ? bytes : bytes.slice(0, count);
    }

    function hexText(bytes, start, end) {
      let text = '';
      for (let i = start; i < end; i++) text += hexDigits[bytes[i] >> 4] + hexDigits[bytes[i] & 15];
      return text;
    }

    const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const base64UrlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const base64Values = new Int8Array(128).fill(-1);
    for (let i = 0; i < 64; i++) {
      base64Values[base64Alphabet.charCodeAt(i)] = i;
      base64Values[base64UrlAlphabet.charCodeAt(i)] = i;
    }

    function base64Bytes(string) {
      const bytes = new Uint8Array(Math.ceil(string.length * 3 / 4));
      let count = 0, bits = 0, held = 0;
      for (let i = 0; i < string.length; i++) {
        const code = string.charCodeAt(i) & 0xff;
        if (code === 61) break;
        const value = code < 128 ? base64Values[code] : -1;
        if (value < 0) continue;
        held = (held << 6) | value;
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          bytes[count++] = (held >> bits) & 0xff;
          held &= (1 << bits) - 1;
        }
      }
      return count === bytes.length ? bytes : bytes.slice(0, count);
    }

    // Padded with '=' in base64; base64url goes without, as Node writes them.
    function base64Text(alphabet, padded) {
      return function (bytes, start, end) {
        let text = '';
        let i = start;
        for (; i + 2 < end; i += 3) {
          const group = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
          text += alphabet[group >> 18] + alphabet[(group >> 12) & 63] + alphabet[(group >> 6) & 63] + alphabet[group & 63];
        }
        if (end - i === 1) {
          text += alphabet[bytes[i] >> 2] + alphabet[(bytes[i] & 3) << 4] + (padded ? '==' : '');
        } else if (end - i === 2) {
          const group = (bytes[i] << 8) | bytes[i + 1];
          text += alphabet[group >> 10] + alphabet[(group >> 4) & 63] + alphabet[(group & 15) << 2] + (padded ? '=' : '');
        }
        return text;
      };
    }

    // Node's estimate: three bytes for four characters, less the trailing padding.
    function base64Length(string) {
      let length = string.length;
      if (length > 0 && string.charCodeAt(length - 1) === 61) length--;
      if (length > 1 && string.charCodeAt(length - 1) === 61) length--;
      return (length * 3) >>> 2;
    }

    function utf16leBytes(string) {
      const bytes = new Uint8Array(string.length * 2);
      for (let i = 0; i < string.length; i++) {
        const unit = string.charCodeAt(i);
        bytes[2 * i] = unit & 0xff;
        bytes[2 * i + 1] = unit >> 8;
      }
      return bytes;
    }

    function utf16leText(bytes, start, end) {
      const codes = [];
      for (let i = start; i + 1 < end; i += 2) codes.push(bytes[i] | (bytes[i + 1] << 8));
      return stringFromCodes(codes);
    }

    const latin1 = {
      bytes: (string) => bytesOfCodes(string, 0xff),
      text: (bytes, start, end) => codesOfBytes(bytes, start, end, 0xff),
      byteLength: (string) => string.length,
    };
    const utf16le = { bytes: utf16leBytes, text: utf16leText, byteLength: (string) => string.length * 2 };
    const encodings = {
      utf8: { bytes: utf8Bytes, text: utf8Text, byteLength: utf8Length },
      hex: { bytes: hexBytes, text: hexText, byteLength: (string) => string.length >>> 1 },
      base64: { bytes: base64Bytes, text: base64Text(base64Alphabet, true), byteLength: base64Length },
      base64url: { bytes: base64Bytes, text: base64Text(base64UrlAlphabet, false), byteLength: base64Length },
      latin1,
      // Written as latin1, as Node does; read back as seven bits.
      ascii: { bytes: latin1.bytes, text: (bytes, start, end) => codesOfBytes(bytes, start, end, 0x7f), byteLength: latin1.byteLength },
      utf16le,
    };
    const aliases = new Map([
      ['utf8', 'utf8'], ['utf-8', 'utf8'], ['hex', 'hex'], ['base64', 'base64'], ['base64url', 'base64url'], ['latin1', 'latin1'],
      ['binary', 'latin1'], ['ascii', 'ascii'], ['utf16le', 'utf16le'], ['utf-16le', 'utf16le'], ['ucs2', 'utf16le'], ['ucs-2', 'utf16le'],
    ]);

    // The codec for an encoding's name in any case, or undefined.
    function encoding(name) {
      if (typeof name !== 'string') return undefined;
      const canonical = aliases.get(name) || aliases.get(name.toLowerCase());
      return canonical === undefined ? undefined : encodings[canonical];
    }

    module.exports = { encoding, utf8: encodings.utf8 };
    """#
}
