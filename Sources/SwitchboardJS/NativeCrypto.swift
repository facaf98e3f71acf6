import CJavaScriptCore
import Crypto
import Foundation

/// What `crypto` cannot do in JavaScript: digests and HMACs (swift-crypto) and random bytes
/// from the system's CSPRNG. Installed as a deletable global object, `__nativeCrypto`, that
/// the prelude takes off the global object before any script runs and hands only to Node's
/// built-in modules (`require('switchboard:native-crypto')` in their bodies).
///
/// - `digest(algorithm, bytes)`: a new Uint8Array with the digest of `bytes`.
/// - `hmac(algorithm, key, bytes)`: a new Uint8Array with the HMAC of `bytes` under `key`.
/// - `randomFill(bytes)`: fills `bytes` in place; returns undefined.
///
/// `algorithm` is md5, sha1, sha256, sha384 or sha512; the byte arguments are Uint8Arrays
/// (a Buffer is one). Anything else throws a TypeError.
enum NativeCrypto {
    static let globalName = "__nativeCrypto"

    static func install(in context: JSGlobalContextRef) {
        let object = JSObjectMake(context, nil, nil)
        let functions: [(String, JSObjectCallAsFunctionCallback)] = [
            ("digest", digestCallback), ("hmac", hmacCallback), ("randomFill", randomFillCallback),
        ]
        for (name, callback) in functions {
            JSString.with(name) { nameRef in
                JSObjectSetProperty(context, object, nameRef, JSObjectMakeFunctionWithCallback(context, nameRef, callback),
                                    JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete), nil)
            }
        }
        JSString.with(globalName) { name in
            JSObjectSetProperty(context, JSContextGetGlobalObject(context), name, object, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
        }
    }

    private static func hashFunction(named name: String) -> (any HashFunction.Type)? {
        switch name {
        case "md5": Insecure.MD5.self
        case "sha1": Insecure.SHA1.self
        case "sha256": SHA256.self
        case "sha384": SHA384.self
        case "sha512": SHA512.self
        default: nil
        }
    }

    private static let digestCallback: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, exception in
        guard let context else { return nil }
        guard count == 2, let arguments, let algorithm = hashFunction(in: context, arguments[0]) else {
            return fail("digest(algorithm, bytes) takes md5, sha1, sha256, sha384 or sha512 and a Uint8Array", in: context, exception)
        }
        guard let result = withBytes(of: arguments[1], in: context, { digest(algorithm, of: UnsafeRawBufferPointer($0)) }) else {
            return fail("digest(algorithm, bytes) takes a Uint8Array", in: context, exception)
        }
        return makeBytes(result, in: context, exception)
    }

    private static let hmacCallback: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, exception in
        guard let context else { return nil }
        guard count == 3, let arguments, let algorithm = hashFunction(in: context, arguments[0]) else {
            return fail("hmac(algorithm, key, bytes) takes md5, sha1, sha256, sha384 or sha512 and two Uint8Arrays", in: context, exception)
        }
        // The key is copied out before the data is read: a pointer is good only until the next call into JavaScriptCore.
        guard let key = withBytes(of: arguments[1], in: context, { SymmetricKey(data: UnsafeRawBufferPointer($0)) }),
              let result = withBytes(of: arguments[2], in: context, { authenticationCode(algorithm, for: UnsafeRawBufferPointer($0), key: key) })
        else {
            return fail("hmac(algorithm, key, bytes) takes two Uint8Arrays", in: context, exception)
        }
        return makeBytes(result, in: context, exception)
    }

    private static let randomFillCallback: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, exception in
        guard let context else { return nil }
        guard count == 1, withBytes(of: arguments?[0], in: context, fillFromSystem) != nil else {
            return fail("randomFill(bytes) takes a Uint8Array", in: context, exception)
        }
        return JSValueMakeUndefined(context)
    }

    /// The standard library's generator is the system's CSPRNG (getrandom, arc4random).
    private static func fillFromSystem(_ bytes: UnsafeMutableRawBufferPointer) {
        var generator = SystemRandomNumberGenerator()
        var index = 0
        while index < bytes.count {
            let word = generator.next()
            let take = min(MemoryLayout.size(ofValue: word), bytes.count - index)
            withUnsafeBytes(of: word) { bytes.baseAddress!.advanced(by: index).copyMemory(from: $0.baseAddress!, byteCount: take) }
            index += take
        }
    }

    private static func hashFunction(in context: JSContextRef, _ value: JSValueRef?) -> (any HashFunction.Type)? {
        guard let value, JSValueIsString(context, value), let name = JSString.string(of: value, in: context) else { return nil }
        return hashFunction(named: name)
    }

    private static func digest<H: HashFunction>(_: H.Type, of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = H()
        hasher.update(bufferPointer: bytes)
        return Array(hasher.finalize())
    }

    private static func authenticationCode<H: HashFunction>(_: H.Type, for bytes: UnsafeRawBufferPointer, key: SymmetricKey) -> [UInt8] {
        var code = HMAC<H>(key: key)
        code.update(data: bytes)
        return Array(code.finalize())
    }

    /// Runs `body` over the bytes of a Uint8Array (within its buffer, from its offset), or
    /// returns nil if `value` is not one. The pointer must not outlive `body`, and `body`
    /// must not call into JavaScriptCore.
    private static func withBytes<Result>(of value: JSValueRef?, in context: JSContextRef,
                                          _ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result? {
        guard let value, JSValueGetTypedArrayType(context, value, nil) == kJSTypedArrayTypeUint8Array,
              let object = JSValueToObject(context, value, nil)
        else { return nil }
        let length = JSObjectGetTypedArrayByteLength(context, object, nil)
        // A detached buffer has no bytes and a length of 0.
        guard length > 0, let base = JSObjectGetTypedArrayBytesPtr(context, object, nil) else {
            return body(UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
        let offset = JSObjectGetTypedArrayByteOffset(context, object, nil)
        return body(UnsafeMutableRawBufferPointer(start: base.advanced(by: offset), count: length))
    }

    private static func makeBytes(_ bytes: [UInt8], in context: JSContextRef, _ exception: UnsafeMutablePointer<JSValueRef?>?) -> JSValueRef? {
        guard let array = JSObjectMakeTypedArray(context, kJSTypedArrayTypeUint8Array, bytes.count, exception),
              let base = JSObjectGetTypedArrayBytesPtr(context, array, exception)
        else { return nil }
        bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        return array
    }

    /// Throws a TypeError, made by the VM's own TypeError constructor when the global one is
    /// still a constructor (only built-in modules call these, and they check arguments first).
    private static func fail(_ message: String, in context: JSContextRef, _ exception: UnsafeMutablePointer<JSValueRef?>?) -> JSValueRef? {
        JSString.with(message) { text in
            var arguments: [JSValueRef?] = [JSValueMakeString(context, text)]
            let global = JSContextGetGlobalObject(context)
            let constructor = JSString.with("TypeError") { JSObjectGetProperty(context, global, $0, nil) }
            if let constructor, JSValueIsObject(context, constructor), let object = JSValueToObject(context, constructor, nil),
               JSObjectIsConstructor(context, object) {
                exception?.pointee = JSObjectCallAsConstructor(context, object, 1, &arguments, nil)
            } else {
                exception?.pointee = JSObjectMakeError(context, 1, &arguments, nil)
            }
        }
        return JSValueMakeUndefined(context)
    }
}
