extension NodeModules {
    /// `crypto`: hashes, HMACs and random values over the host's natives (`NativeCrypto`).
    static let crypto = #"""
    'use strict';
    const native = require('switchboard:native-crypto');
    const { Buffer } = require('buffer');
    const codecs = require('switchboard:codecs');
    const { nodeError, invalidArgType, outOfRange, checkString, checkFunction } = require('switchboard:errors');

    // The digests the host computes, under the names OpenSSL also answers to in Node.
    const digests = new Map();
    for (const name of ['md5', 'sha1', 'sha256', 'sha384', 'sha512']) {
      digests.set(name, name);
      digests.set('rsa-' + name, name);
    }
    for (const bits of ['256', '384', '512']) {
      digests.set('sha-' + bits, 'sha' + bits);
      digests.set('sha2-' + bits, 'sha' + bits);
    }
    digests.set('sha-1', 'sha1');

    function digestName(algorithm) {
      checkString(algorithm, 'algorithm');
      return digests.get(algorithm.toLowerCase());
    }

    // A copy of the bytes of an ArrayBuffer or a view of one, as a plain Uint8Array.
    function copyOfBytes(value) {
      if (value instanceof ArrayBuffer) return new Uint8Array(value.slice(0));
      return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
    }

    // What update() takes: a string in an encoding (UTF-8 unless a known one is named), or
    // the bytes of a view, copied now so that later writes to it change nothing.
    function dataBytes(data, encoding) {
      if (typeof data === 'string') return (codecs.encoding(encoding) || codecs.utf8).bytes(data);
      if (ArrayBuffer.isView(data)) return copyOfBytes(data);
      throw invalidArgType('data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
    }

    function concatenated(chunks) {
      if (chunks.length === 1) return chunks[0];
      const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let at = 0;
      for (const chunk of chunks) { all.set(chunk, at); at += chunk.length; }
      return all;
    }

    // A Buffer, or a string when the encoding is one Node knows (as Node, other names get a Buffer).
    function output(bytes, encoding) {
      const result = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      return encoding !== 'buffer' && codecs.encoding(encoding) ? result.toString(encoding) : result;
    }

    // What update() was given, kept until digest() hands it to the host in one call.
    class Digester {
      constructor(compute) {
        this._compute = compute;
        this._chunks = [];
        this._finished = false;
      }

      update(data, inputEncoding) {
        if (this._finished) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
        this._chunks.push(dataBytes(data, inputEncoding));
        return this;
      }

      digest(outputEncoding) {
        if (this._finished) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
        this._finished = true;
        const bytes = this._compute(concatenated(this._chunks));
        this._chunks = [];
        return output(bytes, outputEncoding);
      }
    }

    class Hash extends Digester {
      copy() {
        if (this._finished) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
        const copy = new Hash(this._compute);
        copy._chunks = this._chunks.slice();
        return copy;
      }
    }

    function createHash(algorithm) {
      const name = digestName(algorithm);
      if (name === undefined) throw new Error('Digest method not supported');
      return new Hash((bytes) => native.digest(name, bytes));
    }

    function createHmac(algorithm, key) {
      const name = digestName(algorithm);
      if (name === undefined) throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest: ' + algorithm);
      let keyBytes;
      if (typeof key === 'string') keyBytes = codecs.utf8.bytes(key);
      else if (ArrayBuffer.isView(key) || key instanceof ArrayBuffer) keyBytes = copyOfBytes(key);
      else throw invalidArgType('key', 'of type string or an instance of ArrayBuffer, Buffer, TypedArray, or DataView', key);
      return new Digester((bytes) => native.hmac(name, keyBytes, bytes));
    }

    function getHashes() {
      return ['md5', 'sha1', 'sha256', 'sha384', 'sha512'];
    }

    const maxRandomBytes = 2 ** 31 - 1;

    // A slice at a time, so that the script's time limit can stop a huge request in between.
    function fillRandom(bytes) {
      for (let at = 0; at < bytes.length; at += 65536) native.randomFill(bytes.subarray(at, at + 65536));
    }

    // Node calls these callbacks later, never before the call returns; a resolved Promise does.
    function later(callback, ...args) {
      Promise.resolve().then(() => callback(...args));
    }

    function randomBytes(size, callback) {
      if (typeof size !== 'number') throw invalidArgType('size', 'of type number', size);
      if (!(size >= 0 && size <= maxRandomBytes)) throw outOfRange('size', '>= 0 && <= ' + maxRandomBytes, size);
      if (callback !== undefined) checkFunction(callback, 'callback');
      const buffer = Buffer.alloc(size);
      fillRandom(buffer);
      if (callback === undefined) return buffer;
      later(callback, null, buffer);
    }

    // The bytes of buf from offset for size, both counted in its elements as Node counts them.
    function randomTarget(buf, offset, size) {
      const isBuffer = buf instanceof ArrayBuffer;
      if (!isBuffer && !ArrayBuffer.isView(buf)) throw invalidArgType('buf', 'an instance of ArrayBuffer or ArrayBufferView', buf);
      const elementSize = buf.BYTES_PER_ELEMENT || 1;
      const byteLength = buf.byteLength;
      let from = 0;
      if (offset !== undefined) {
        if (typeof offset !== 'number') throw invalidArgType('offset', 'of type number', offset);
        from = offset * elementSize;
        if (!(from >= 0 && from <= byteLength)) throw outOfRange('offset', '>= 0 && <= ' + byteLength, offset);
      }
      let count = byteLength - from;
      if (size !== undefined) {
        if (typeof size !== 'number') throw invalidArgType('size', 'of type number', size);
        count = size * elementSize;
        if (!(count >= 0 && from + count <= byteLength)) throw outOfRange('size', '>= 0 && <= ' + (byteLength - from), size);
      }
      return isBuffer ? new Uint8Array(buf, from, count) : new Uint8Array(buf.buffer, buf.byteOffset + from, count);
    }

    function randomFillSync(buf, offset, size) {
      fillRandom(randomTarget(buf, offset, size));
      return buf;
    }

    // randomFill(buf[, offset[, size]], callback)
    function randomFill(buf, ...rest) {
      const callback = rest.pop();
      checkFunction(callback, 'callback');
      fillRandom(randomTarget(buf, rest[0], rest[1]));
      later(callback, null, buf);
    }

    function randomUUID() {
      const bytes = new Uint8Array(16);
      fillRandom(bytes);
      bytes[6] = (bytes[6] & 0x0f) | 0x40;
      bytes[8] = (bytes[8] & 0x3f) | 0x80;
      const hex = codecs.encoding('hex').text(bytes, 0, 16);
      return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
    }

    const randomIntSpan = 2 ** 48;

    // randomInt([min, ]max[, callback]): uniform over [min, max), by rejecting draws of 48
    // random bits past the last whole multiple of the range.
    function randomInt(min, max, callback) {
      if (max === undefined || typeof max === 'function') {
        callback = max;
        max = min;
        min = 0;
      }
      if (callback !== undefined) checkFunction(callback, 'callback');
      if (!Number.isSafeInteger(min)) throw invalidArgType('min', 'a safe integer', min);
      if (!Number.isSafeInteger(max)) throw invalidArgType('max', 'a safe integer', max);
      if (max <= min) throw outOfRange('max', 'greater than the value of "min" (' + min + ')', max);
      const range = max - min;
      if (range >= randomIntSpan) throw outOfRange('max - min', '<= ' + (randomIntSpan - 1), range);
      const limit = randomIntSpan - (randomIntSpan % range);
      const bytes = new Uint8Array(6);
      let draw;
      do {
        fillRandom(bytes);
        draw = bytes.reduce((value, byte) => value * 256 + byte, 0);
      } while (draw >= limit);
      const result = min + (draw % range);
      if (callback === undefined) return result;
      later(callback, null, result);
    }

    function timingSafeEqual(a, b) {
      const views = [a, b].map((value, i) => {
        if (value instanceof ArrayBuffer) return new Uint8Array(value);
        if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
        throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
          'The "buf' + (i + 1) + '" argument must be an instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
      });
      if (views[0].length !== views[1].length) {
        throw nodeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
      }
      // Every byte is looked at, whatever differs first.
      let difference = 0;
      for (let i = 0; i < views[0].length; i++) difference |= views[0][i] ^ views[1][i];
      return difference === 0;
    }

    module.exports = {
      createHash, createHmac, getHashes,
      randomBytes, pseudoRandomBytes: randomBytes, randomFillSync, randomFill, randomUUID, randomInt,
      timingSafeEqual,
    };

    // What the host does not provide fails when called, saying so, rather than as undefined.
    const unavailable = [
      'createCipheriv', 'createDecipheriv', 'createSign', 'createVerify', 'sign', 'verify', 'publicEncrypt', 'privateDecrypt',
      'privateEncrypt', 'publicDecrypt', 'pbkdf2', 'pbkdf2Sync', 'scrypt', 'scryptSync', 'hkdf', 'hkdfSync', 'generateKeyPair',
      'generateKeyPairSync', 'createECDH', 'createDiffieHellman', 'createPrivateKey', 'createPublicKey', 'createSecretKey',
    ];
    for (const name of unavailable) {
      module.exports[name] = function () {
        throw nodeError(Error, 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', 'crypto.' + name + ' is not available in hook scripts');
      };
    }
    """#
}
