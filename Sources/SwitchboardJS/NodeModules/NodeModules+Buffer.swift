extension NodeModules {
    /// `buffer`: Node's `Buffer`, also the scripts' global `Buffer`.
    static let buffer = #"""
    'use strict';
    const { nodeError, invalidArgType, outOfRange, checkString } = require('switchboard:errors');
    const codecs = require('switchboard:codecs');

    const kMaxLength = 2 ** 32;
    // JavaScriptCore's longest string (Node reports V8's).
    const kStringMaxLength = 2 ** 31 - 1;
    const INSPECT_MAX_BYTES = 50;
    const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

    // A Uint8Array whose prototype is Buffer.prototype. Buffer is a plain function rather than
    // a class so that old code's `Buffer(x)` and `new Buffer(x)` still work, and so that the
    // typed array methods that make new arrays (subarray, map) make Buffers through it.
    function Buffer(value, encodingOrOffset, length) {
      return typeof value === 'number' ? Buffer.alloc(value) : Buffer.from(value, encodingOrOffset, length);
    }
    Object.setPrototypeOf(Buffer.prototype, Uint8Array.prototype);
    Object.setPrototypeOf(Buffer, Uint8Array);
    Buffer.poolSize = 8192;

    function make(...args) { return Reflect.construct(Uint8Array, args, Buffer); }
    // A Buffer over the same memory as a Uint8Array.
    function over(bytes) { return make(bytes.buffer, bytes.byteOffset, bytes.length); }

    function isUint8Array(value) { return value instanceof Uint8Array; }

    // A codec by name; absent means UTF-8, an unknown name throws.
    function codecFor(encoding) {
      if (encoding === undefined) return codecs.utf8;
      const codec = codecs.encoding(encoding);
      if (codec === undefined) throw nodeError(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + String(encoding));
      return codec;
    }

    function checkInteger(value, name, min, max) {
      if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
      if (!Number.isInteger(value)) throw outOfRange(name, 'an integer', value);
      if (value < min || value > max) throw outOfRange(name, '>= ' + min + ' && <= ' + max, value);
    }

    function checkSize(size) {
      if (typeof size !== 'number') throw invalidArgType('size', 'of type number', size);
      if (!(size >= 0 && size <= kMaxLength)) throw outOfRange('size', '>= 0 && <= ' + kMaxLength, size);
    }

    Buffer.from = function from(value, encodingOrOffset, length) {
      if (typeof value === 'string') {
        const codec = typeof encodingOrOffset === 'string' && encodingOrOffset !== '' ? codecFor(encodingOrOffset) : codecs.utf8;
        return over(codec.bytes(value));
      }
      if (typeof value === 'object' && value !== null) {
        if (value instanceof ArrayBuffer) return fromArrayBuffer(value, encodingOrOffset, length);
        // Boxed strings and the like come as what they box.
        const primitive = typeof value.valueOf === 'function' ? value.valueOf() : value;
        if (primitive !== null && primitive !== value && (typeof primitive === 'string' || typeof primitive === 'object')) {
          return Buffer.from(primitive, encodingOrOffset, length);
        }
        // Arrays, typed arrays and array-likes, element by element; a DataView comes out empty.
        if (value.length !== undefined || value.buffer instanceof ArrayBuffer) {
          return typeof value.length === 'number' ? make(value) : make(0);
        }
        // What buf.toJSON() made.
        if (value.type === 'Buffer' && Array.isArray(value.data)) return make(value.data);
        if (typeof value[Symbol.toPrimitive] === 'function') {
          const text = value[Symbol.toPrimitive]('string');
          if (typeof text === 'string') return Buffer.from(text, encodingOrOffset);
        }
      }
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        'The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.');
    };

    // Shares the ArrayBuffer's memory, as in Node.
    function fromArrayBuffer(buffer, byteOffset, length) {
      const offset = byteOffset === undefined || Number.isNaN(+byteOffset) ? 0 : +byteOffset;
      const available = buffer.byteLength - offset;
      if (available < 0) throw nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"offset" is outside of buffer bounds');
      let count = available;
      if (length !== undefined) {
        count = +length > 0 ? +length : 0;
        if (count > available) throw nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"length" is outside of buffer bounds');
      }
      return make(buffer, offset, count);
    }

    Buffer.alloc = function alloc(size, fill, encoding) {
      checkSize(size);
      const buffer = make(size);
      if (fill !== undefined && fill !== 0 && buffer.length > 0) buffer.fill(fill, encoding);
      return buffer;
    };
    // Zeroed all the same: JavaScriptCore has no uninitialised memory to hand out.
    Buffer.allocUnsafe = function allocUnsafe(size) { checkSize(size); return make(size); };
    Buffer.allocUnsafeSlow = Buffer.allocUnsafe;

    Buffer.byteLength = function byteLength(string, encoding) {
      if (typeof string !== 'string') {
        if (ArrayBuffer.isView(string) || string instanceof ArrayBuffer) return string.byteLength;
        throw invalidArgType('string', 'of type string or an instance of Buffer or ArrayBuffer', string);
      }
      return (codecs.encoding(encoding) || codecs.utf8).byteLength(string);
    };

    Buffer.isBuffer = function isBuffer(value) { return value instanceof Buffer; };
    Buffer.isEncoding = function isEncoding(encoding) { return codecs.encoding(encoding) !== undefined; };

    function compareBytes(a, aStart, aEnd, b, bStart, bEnd) {
      const length = Math.min(aEnd - aStart, bEnd - bStart);
      for (let i = 0; i < length; i++) {
        if (a[aStart + i] !== b[bStart + i]) return a[aStart + i] < b[bStart + i] ? -1 : 1;
      }
      const left = aEnd - aStart, right = bEnd - bStart;
      return left === right ? 0 : left < right ? -1 : 1;
    }

    Buffer.compare = function compare(a, b) {
      if (!isUint8Array(a)) throw invalidArgType('buf1', 'an instance of Buffer or Uint8Array', a);
      if (!isUint8Array(b)) throw invalidArgType('buf2', 'an instance of Buffer or Uint8Array', b);
      return compareBytes(a, 0, a.length, b, 0, b.length);
    };

    Buffer.concat = function concat(list, totalLength) {
      if (!Array.isArray(list)) throw invalidArgType('list', 'an instance of Array', list);
      list.forEach((item, i) => {
        if (!isUint8Array(item)) throw invalidArgType('list[' + i + ']', 'an instance of Buffer or Uint8Array', item);
      });
      let length = totalLength;
      if (length === undefined) length = list.reduce((sum, item) => sum + item.length, 0);
      else checkInteger(length, 'length', 0, kMaxLength);
      const result = make(length);
      let at = 0;
      for (const item of list) {
        if (at >= length) break;
        const count = Math.min(item.length, length - at);
        result.set(count === item.length ? item : item.subarray(0, count), at);
        at += count;
      }
      return result;
    };

    const proto = Buffer.prototype;

    proto.toString = function toString(encoding, start, end) {
      if (arguments.length === 0) return codecs.utf8.text(this, 0, this.length);
      const length = this.length;
      let from = 0;
      if (start > 0) {
        if (start >= length) return '';
        from = Math.trunc(start);
      }
      const to = end === undefined || end > length ? length : Math.trunc(end) || 0;
      if (to <= from) return '';
      return codecFor(encoding).text(this, from, to);
    };
    proto.toLocaleString = proto.toString;

    proto.toJSON = function toJSON() {
      return { type: 'Buffer', data: Array.from(this) };
    };

    proto.equals = function equals(other) {
      if (!isUint8Array(other)) throw invalidArgType('otherBuffer', 'an instance of Buffer or Uint8Array', other);
      return this === other || compareBytes(this, 0, this.length, other, 0, other.length) === 0;
    };

    proto.compare = function compare(target, targetStart, targetEnd, sourceStart, sourceEnd) {
      if (!isUint8Array(target)) throw invalidArgType('target', 'an instance of Buffer or Uint8Array', target);
      const bound = (value, name, fallback, max) => {
        if (value === undefined) return fallback;
        checkInteger(value, name, 0, max);
        return value;
      };
      const tStart = bound(targetStart, 'targetStart', 0, kMaxLength);
      const tEnd = bound(targetEnd, 'targetEnd', target.length, target.length);
      const sStart = bound(sourceStart, 'sourceStart', 0, kMaxLength);
      const sEnd = bound(sourceEnd, 'sourceEnd', this.length, this.length);
      if (sStart >= sEnd) return tStart >= tEnd ? 0 : -1;
      if (tStart >= tEnd) return 1;
      return compareBytes(this, sStart, sEnd, target, tStart, tEnd);
    };

    // A whole number from an argument, or the fallback when it is not a finite number.
    function wholeNumber(value, fallback) {
      const number = +value;
      return Number.isFinite(number) ? Math.floor(number) : fallback;
    }

    proto.copy = function copy(target, targetStart, sourceStart, sourceEnd) {
      if (!isUint8Array(target)) throw invalidArgType('target', 'an instance of Buffer or Uint8Array', target);
      const tStart = wholeNumber(targetStart, 0);
      if (tStart < 0) throw outOfRange('targetStart', '>= 0', tStart);
      const sStart = wholeNumber(sourceStart, 0);
      if (sStart < 0 || sStart > this.length) throw outOfRange('sourceStart', '>= 0 && <= ' + this.length, sStart);
      let sEnd = sourceEnd === undefined ? this.length : wholeNumber(sourceEnd, 0);
      if (sEnd < 0) throw outOfRange('sourceEnd', '>= 0', sEnd);
      sEnd = Math.min(sEnd, this.length, sStart + target.length - tStart);
      if (tStart >= target.length || sStart >= sEnd) return 0;
      // set() copies as if through a temporary, so overlapping ranges of one buffer are safe.
      target.set(this.subarray(sStart, sEnd), tStart);
      return sEnd - sStart;
    };

    // Node's slice shares memory, unlike Uint8Array's.
    proto.slice = function slice(start, end) { return this.subarray(start, end); };

    proto.fill = function fill(value, offset, end, encoding) {
      let fillValue = value;
      let codec = codecs.utf8;
      if (typeof value === 'string') {
        if (typeof offset === 'string') { encoding = offset; offset = undefined; end = undefined; }
        else if (typeof end === 'string') { encoding = end; end = undefined; }
        codec = codecFor(encoding);
        if (value.length === 0) fillValue = 0;
      } else if (typeof value === 'boolean') {
        fillValue = Number(value);
      }
      let from = 0, to = this.length;
      if (offset !== undefined) {
        checkInteger(offset, 'offset', 0, kMaxLength);
        from = offset;
        if (end !== undefined) {
          checkInteger(end, 'end', 0, this.length);
          to = end;
        }
        if (from >= to) return this;
      }
      if (typeof fillValue === 'number') {
        Uint8Array.prototype.fill.call(this, fillValue & 255, from, to);
        return this;
      }
      const pattern = isUint8Array(fillValue) ? fillValue : codec.bytes(String(fillValue));
      if (pattern.length === 0) {
        throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'value' is invalid. Received " + String(value));
      }
      // The pattern once, then doubled by copying what is already written.
      let written = Math.min(pattern.length, to - from);
      this.set(pattern.subarray(0, written), from);
      while (from + written < to) {
        const count = Math.min(written, to - from - written);
        this.copyWithin(from + written, from, from + count);
        written += count;
      }
      return this;
    };

    proto.write = function write(string, offset, length, encoding) {
      checkString(string, 'string');
      let at = 0, max = this.length;
      if (typeof offset === 'string' && length === undefined) {
        encoding = offset;
      } else if (offset !== undefined) {
        checkInteger(offset, 'offset', 0, this.length);
        at = offset;
        max = this.length - at;
        if (typeof length === 'string') {
          encoding = length;
        } else if (length !== undefined) {
          checkInteger(length, 'length', 0, this.length);
          max = Math.min(length, max);
        }
      }
      const codec = codecFor(encoding);
      const bytes = codec.bytes(string);
      let count = Math.min(bytes.length, max);
      // Only whole characters: no UTF-8 sequence or UTF-16 unit is cut in two.
      if (codec === codecs.utf8) {
        while (count > 0 && count < bytes.length && (bytes[count] & 0xc0) === 0x80) count--;
      } else if (codec === codecs.encoding('utf16le')) {
        count -= count % 2;
      }
      this.set(bytes.subarray(0, count), at);
      return count;
    };

    // Where a search may start, or -1 if it cannot match, as Node's indexOf counts offsets.
    function searchStart(length, offset, needleLength, forward) {
      if (offset < 0) {
        if (offset + length >= 0) return length + offset;
        return forward || needleLength === 0 ? 0 : -1;
      }
      if (offset + needleLength <= length) return offset;
      if (needleLength === 0) return length;
      return forward ? -1 : length - 1;
    }

    function search(buffer, value, byteOffset, encoding, forward) {
      if (typeof byteOffset === 'string') {
        encoding = byteOffset;
        byteOffset = undefined;
      }
      let offset = Math.trunc(Math.min(Math.max(+byteOffset, -0x80000000), 0x7fffffff));
      if (Number.isNaN(offset)) offset = forward ? 0 : buffer.length;
      let needle;
      if (typeof value === 'number') needle = [value & 255];
      else if (typeof value === 'string') needle = codecFor(encoding).bytes(value);
      else if (isUint8Array(value)) needle = value;
      else throw invalidArgType('value', 'one of type number or string or an instance of Buffer or Uint8Array', value);
      const start = searchStart(buffer.length, offset, needle.length, forward);
      if (needle.length === 0) return start;
      if (start < 0 || buffer.length === 0) return -1;
      const last = buffer.length - needle.length;
      const matches = (at) => {
        for (let j = 0; j < needle.length; j++) if (buffer[at + j] !== needle[j]) return false;
        return true;
      };
      if (forward) {
        for (let at = start; at <= last; at++) if (matches(at)) return at;
      } else {
        for (let at = Math.min(start, last); at >= 0; at--) if (matches(at)) return at;
      }
      return -1;
    }

    proto.indexOf = function indexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); };
    proto.lastIndexOf = function lastIndexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); };
    proto.includes = function includes(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true) !== -1; };

    function checkOffsetType(offset) {
      if (typeof offset !== 'number') throw invalidArgType('offset', 'of type number', offset);
    }

    function checkOffset(buffer, offset, size) {
      checkOffsetType(offset);
      if (!Number.isInteger(offset)) throw outOfRange('offset', 'an integer', offset);
      if (offset < 0 || offset + size > buffer.length) {
        if (buffer.length < size) throw nodeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', 'Attempt to access memory outside buffer bounds');
        throw outOfRange('offset', '>= 0 and <= ' + (buffer.length - size), offset);
      }
      return offset;
    }

    function checkByteLength(byteLength) {
      if (typeof byteLength !== 'number') throw invalidArgType('byteLength', 'of type number', byteLength);
      if (!(Number.isInteger(byteLength) && byteLength >= 1 && byteLength <= 6)) throw outOfRange('byteLength', '>= 1 and <= 6', byteLength);
    }

    // Integers of 1 to 6 bytes: plain arithmetic, exact up to 48 bits.
    function readInteger(buffer, offset, size, little, signed) {
      const at = checkOffset(buffer, offset, size);
      let value = 0;
      for (let i = 0; i < size; i++) value = value * 256 + buffer[little ? at + size - 1 - i : at + i];
      return signed && value >= 2 ** (8 * size - 1) ? value - 2 ** (8 * size) : value;
    }

    // Node checks a one-byte write's offset type before the value, longer ones' after it.
    function writeInteger(buffer, value, offset, size, little, signed) {
      if (size === 1) checkOffsetType(offset);
      const number = +value;
      const min = signed ? -(2 ** (8 * size - 1)) : 0;
      const max = signed ? 2 ** (8 * size - 1) - 1 : 2 ** (8 * size) - 1;
      if (number < min || number > max) throw outOfRange('value', '>= ' + min + ' and <= ' + max, value);
      const at = checkOffset(buffer, offset, size);
      let rest = Math.trunc(number);
      if (rest < 0) rest += 2 ** (8 * size);
      for (let i = 0; i < size; i++) {
        buffer[little ? at + i : at + size - 1 - i] = rest % 256;
        rest = Math.floor(rest / 256);
      }
      return at + size;
    }

    for (const [size, name] of [[1, '8'], [2, '16'], [4, '32']]) {
      for (const little of size === 1 ? [true] : [true, false]) {
        const suffix = name + (size === 1 ? '' : little ? 'LE' : 'BE');
        for (const signed of [false, true]) {
          const read = function (offset = 0) { return readInteger(this, offset, size, little, signed); };
          const write = function (value, offset = 0) { return writeInteger(this, value, offset, size, little, signed); };
          // Both spellings, readUInt8 and readUint8, as Node has.
          for (const type of signed ? ['Int'] : ['UInt', 'Uint']) {
            proto['read' + type + suffix] = read;
            proto['write' + type + suffix] = write;
          }
        }
      }
    }

    // readUIntLE(offset, byteLength) and the like: no default offset here.
    for (const little of [true, false]) {
      const suffix = little ? 'LE' : 'BE';
      for (const signed of [false, true]) {
        const read = function (offset, byteLength) {
          checkOffsetType(offset);
          checkByteLength(byteLength);
          return readInteger(this, offset, byteLength, little, signed);
        };
        const write = function (value, offset, byteLength) {
          checkByteLength(byteLength);
          return writeInteger(this, value, offset, byteLength, little, signed);
        };
        for (const type of signed ? ['Int'] : ['UInt', 'Uint']) {
          proto['read' + type + suffix] = read;
          proto['write' + type + suffix] = write;
        }
      }
    }

    // Floats and 64-bit integers go through a DataView over a scratch copy.
    const scratch = new DataView(new ArrayBuffer(8));
    const scratchBytes = new Uint8Array(scratch.buffer);
    const viewed = [
      ['Float', 4, 'Float32'], ['Double', 8, 'Float64'],
      ['BigInt64', 8, 'BigInt64'], ['BigUInt64', 8, 'BigUint64'], ['BigUint64', 8, 'BigUint64'],
    ];
    for (const [name, size, type] of viewed) {
      const isBig = type.startsWith('Big');
      for (const little of [true, false]) {
        const suffix = little ? 'LE' : 'BE';
        proto['read' + name + suffix] = function (offset = 0) {
          const at = checkOffset(this, offset, size);
          scratchBytes.set(this.subarray(at, at + size));
          return scratch['get' + type](0, little);
        };
        proto['write' + name + suffix] = function (value, offset = 0) {
          if (isBig) {
            if (typeof value !== 'bigint') throw invalidArgType('value', 'of type bigint', value);
            const signed = type === 'BigInt64';
            const min = signed ? -(2n ** 63n) : 0n, max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
            if (value < min || value > max) throw outOfRange('value', '>= ' + min + 'n and <= ' + max + 'n', value + 'n');
          }
          const at = checkOffset(this, offset, size);
          scratch['set' + type](0, isBig ? value : +value, little);
          this.set(scratchBytes.subarray(0, size), at);
          return at + size;
        };
      }
    }

    function swapper(size) {
      return function () {
        if (this.length % size !== 0) {
          throw nodeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of ' + 8 * size + '-bits');
        }
        for (let at = 0; at < this.length; at += size) this.subarray(at, at + size).reverse();
        return this;
      };
    }
    proto.swap16 = swapper(2);
    proto.swap32 = swapper(4);
    proto.swap64 = swapper(8);

    // How util.inspect shows a Buffer: <Buffer 68 69>.
    proto[inspectSymbol] = function inspect() {
      const shown = Math.min(this.length, INSPECT_MAX_BYTES);
      const pairs = codecs.encoding('hex').text(this, 0, shown).match(/../g) || [];
      const more = this.length - shown;
      return '<Buffer ' + pairs.join(' ') + (more > 0 ? ' ... ' + more + ' more byte' + (more > 1 ? 's' : '') : '') + '>';
    };

    module.exports = {
      Buffer,
      kMaxLength,
      kStringMaxLength,
      constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength },
      INSPECT_MAX_BYTES,
    };
    """#
}
