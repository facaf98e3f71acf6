extension Prelude {
    /// LeanStorage's values in scripts as the JS SDK (leancloud-storage) has them: `AV.Error`,
    /// `AV.GeoPoint`, `AV.File`, `AV.ACL`, and the encoding both ways between them (with
    /// `AV.Object` and `Date`) and LeanStorage's JSON (`{__type: 'Pointer' | 'Date' | ...}`).
    /// Part of the prelude's scope.
    static let storageTypes = #"""
      // new AV.Error(code, message), with LeanCloud's codes scripts compare against; what the
      // store refuses reaches scripts as one, with LeanStorage's code.
      class AVError extends Error {
        constructor(code, message) { super(message); this.code = code; }
      }
      Object.assign(AVError, {
        OTHER_CAUSE: -1, INTERNAL_SERVER_ERROR: 1, CONNECTION_FAILED: 100, OBJECT_NOT_FOUND: 101, INVALID_QUERY: 102,
        INVALID_CLASS_NAME: 103, MISSING_OBJECT_ID: 104, INVALID_KEY_NAME: 105, INVALID_POINTER: 106, INVALID_JSON: 107,
        INCORRECT_TYPE: 111, OPERATION_FORBIDDEN: 119, TIMEOUT: 124, DUPLICATE_VALUE: 137, SCRIPT_FAILED: 141,
        VALIDATION_ERROR: 142, UPDATE_NO_EFFECT: 305,
      });

      // A call on the app's LeanStorage classes, made by the server (see ScriptStorageCall);
      // `stack` as ask's.
      function storage(action, request, stack) {
        return AVPromise.resolve(ask('storage', Object.assign({ action }, request), stack));
      }
      const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
      const isPlainObject = (value) => value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
      const ensureArray = (value) => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
      const parseDate = (iso) => new Date(iso);

      class AVGeoPoint {
        constructor(latitude, longitude) {
          if (Array.isArray(latitude)) [latitude, longitude] = latitude;
          else if (latitude !== null && typeof latitude === 'object') ({ latitude, longitude } = latitude);
          this.latitude = latitude || 0;
          this.longitude = longitude || 0;
        }
        toJSON() { return { __type: 'GeoPoint', latitude: this.latitude, longitude: this.longitude }; }
      }

      // A file LeanStorage keeps (its metadata in an object's field) passes through as it
      // came; saving new files is LeanCloud's file storage, which this server is not.
      class AVFile {
        constructor(name) { this._name = name; this._json = null; }
        static _fromJSON(json) {
          const file = new AVFile(json.name);
          file._json = Object.assign({}, json);
          delete file._json.__type;
          file.id = json.objectId || json.id;
          return file;
        }
        name() { return this._name; }
        url() { return this._json ? this._json.url : undefined; }
        get(key) { return this._json ? this._json[key] : undefined; }
        metaData(key) {
          const meta = (this._json && this._json.metaData) || {};
          return key === undefined ? meta : meta[key];
        }
        size() { return this.metaData('size'); }
        toJSON() {
          if (!this._json) throw new Error('Tried to save an object containing an unsaved file.');
          return Object.assign({ __type: 'File' }, this._json);
        }
        save(options) { return withCallbacks(unavailable('Saving files'), options, this); }
      }

      // Kept and sent as given: the store keeps an object's ACL, every hook has master rights.
      class AVACL {
        constructor(json) {
          this.permissions = {};
          if (isPlainObject(json)) for (const who of Object.keys(json)) this.permissions[who] = Object.assign({}, json[who]);
        }
        _set(who, access, allowed) { (this.permissions[who] = this.permissions[who] || {})[access] = allowed !== false; }
        _get(who, access) { return Boolean(this.permissions[who] && this.permissions[who][access]); }
        setPublicReadAccess(allowed) { this._set('*', 'read', allowed); }
        setPublicWriteAccess(allowed) { this._set('*', 'write', allowed); }
        getPublicReadAccess() { return this._get('*', 'read'); }
        getPublicWriteAccess() { return this._get('*', 'write'); }
        setReadAccess(user, allowed) { this._set(typeof user === 'string' ? user : user.id, 'read', allowed); }
        setWriteAccess(user, allowed) { this._set(typeof user === 'string' ? user : user.id, 'write', allowed); }
        getReadAccess(user) { return this._get(typeof user === 'string' ? user : user.id, 'read'); }
        getWriteAccess(user) { return this._get(typeof user === 'string' ? user : user.id, 'write'); }
        setRoleReadAccess(role, allowed) { this._set('role:' + (typeof role === 'string' ? role : role.get('name')), 'read', allowed); }
        setRoleWriteAccess(role, allowed) { this._set('role:' + (typeof role === 'string' ? role : role.get('name')), 'write', allowed); }
        toJSON() { return this.permissions; }
      }

      // A value as LeanStorage's JSON (the SDK's AV._encode): an object becomes a Pointer, or
      // with `seen` (toJSON) its own JSON when it has data; a Date is {__type: 'Date', iso},
      // or with `full` false (toJSON) its ISO string.
      function encodeValue(value, seen, full = true) {
        if (value instanceof AVObject) {
          if (!seen || seen.includes(value) || !value._hasData) return value._toPointer();
          return value._toFullJSON(seen.concat(value), full);
        }
        if (value instanceof Date) return full ? { __type: 'Date', iso: value.toJSON() } : value.toJSON();
        if (value instanceof AVGeoPoint || value instanceof AVACL || value instanceof AVFile || value instanceof Op) return value.toJSON();
        if (Array.isArray(value)) return value.map((item) => encodeValue(item, seen, full));
        if (value instanceof RegExp) return value.source;
        if (value !== null && typeof value === 'object') {
          const json = {};
          for (const key of Object.keys(value)) json[key] = encodeValue(value[key], seen, full);
          return json;
        }
        return value;
      }

      // LeanStorage's JSON as script values (the SDK's AV._decode): a Pointer becomes an
      // AV.Object of its class (with its fields when the store included them), a Date a
      // Date, an {__op} an operation set() applies.
      function decodeValue(value, key) {
        if (value === null || typeof value !== 'object' || value instanceof Date) return value;
        if (Array.isArray(value)) return value.map((item) => decodeValue(item));
        if (value instanceof AVObject || value instanceof AVFile || value instanceof AVGeoPoint || value instanceof AVACL || value instanceof Op) {
          return value;
        }
        if (key === 'ACL') return new AVACL(value);
        if (typeof value.__op === 'string') return Op._fromJSON(value);
        if ((value.__type === 'Pointer' || value.__type === 'Object') && typeof value.className === 'string') {
          const object = AVObject._create(value.className);
          const fields = Object.assign({}, value);
          delete fields.__type;
          delete fields.className;
          const fetched = value.__type === 'Object' || Object.keys(value).length > 3;
          object._finishFetch(fetched ? fields : { objectId: value.objectId }, fetched);
          return object;
        }
        if (value.__type === 'Date' && typeof value.iso === 'string') return parseDate(value.iso);
        if (value.__type === 'GeoPoint') return new AVGeoPoint(value);
        if (value.__type === 'File') return AVFile._fromJSON(value);
        const decoded = {};
        for (const name of Object.keys(value)) decoded[name] = decodeValue(value[name]);
        return decoded;
      }
    """#
}
