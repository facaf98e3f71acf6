extension Prelude {
    /// `AV.Object` and `AV.Query`, part of the prelude's scope (they use `ask`).
    static let storage = #"""
      // Storage classes load (files declare them at the top), and fail when used; only
      // _Conversation is read, from Switchboard's own store.
      class AVObject {
        constructor(className, attributes) {
          this.className = typeof className === 'string' ? className : this.constructor.className;
          this.attributes = Object.assign({}, typeof className === 'object' ? className : attributes);
        }
        get(key) { return this.attributes[key]; }
        set(key, value) { if (typeof key === 'object') Object.assign(this.attributes, key); else this.attributes[key] = value; return this; }
        unset(key) { delete this.attributes[key]; return this; }
        has(key) { return this.attributes[key] !== undefined && this.attributes[key] !== null; }
        increment(key, amount) { this.attributes[key] = (this.attributes[key] || 0) + (amount === undefined ? 1 : amount); return this; }
        add(key, value) { this.attributes[key] = (this.attributes[key] || []).concat([value]); return this; }
        addUnique(key, value) { const list = this.attributes[key] || []; if (!list.includes(value)) this.add(key, value); return this; }
        remove(key, value) { this.attributes[key] = (this.attributes[key] || []).filter((item) => item !== value); return this; }
        setACL(acl) { return this.set('ACL', acl); }
        getACL() { return this.get('ACL'); }
        toJSON() { return Object.assign({ objectId: this.id }, this.attributes); }
        // save(attributes, options), save(key, value, options) or save(null, options).
        save(key, value, options) {
          if (typeof key === 'string') this.set(key, value); else { if (key) this.set(key); options = value; }
          return withCallbacks(unavailable('Saving ' + this.className), options, this);
        }
        fetch(options) {
          if (this.className !== '_Conversation') return withCallbacks(unavailable('Fetching ' + this.className), options, this);
          return withCallbacks(new AVQuery('_Conversation').get(this.id).then((found) => {
            Object.assign(this.attributes, found.attributes);
            this.createdAt = found.createdAt;
            this.updatedAt = found.updatedAt;
            return this;
          }), options, this);
        }
        destroy(options) { return withCallbacks(unavailable('Deleting ' + this.className), options, this); }
        static extend(className) {
          const name = typeof className === 'string' ? className : className && className.className;
          const Extended = class extends AVObject { constructor(attributes) { super(name, attributes); } };
          Extended.className = name;
          return Extended;
        }
        static createWithoutData(className, id) { const object = new AVObject(className); object.id = id; return object; }
      }
      function conversation(json) {
        const object = new AVObject('_Conversation');
        object.id = json.objectId;
        for (const key of Object.keys(json)) if (key !== 'objectId') object.attributes[key] = json[key];
        object.createdAt = new Date(json.createdAt);
        object.updatedAt = new Date(json.updatedAt);
        return object;
      }
      class AVQuery {
        constructor(objectClass) {
          this.className = typeof objectClass === 'string' ? objectClass : objectClass && objectClass.className;
          this._where = {}; this._limit = 100; this._skip = 0; this._order = []; this._unsupported = [];
        }
        _condition(key, operator, value) {
          const current = this._where[key];
          this._where[key] = Object.assign(current && typeof current === 'object' && !Array.isArray(current) ? current : {}, { [operator]: value });
          return this;
        }
        equalTo(key, value) { this._where[key] = value; return this; }
        notEqualTo(key, value) { return this._condition(key, '$ne', value); }
        containedIn(key, values) { return this._condition(key, '$in', values); }
        notContainedIn(key, values) { return this._condition(key, '$nin', values); }
        containsAll(key, values) { return this._condition(key, '$all', values); }
        exists(key) { return this._condition(key, '$exists', true); }
        doesNotExist(key) { return this._condition(key, '$exists', false); }
        greaterThan(key, value) { return this._condition(key, '$gt', value); }
        greaterThanOrEqualTo(key, value) { return this._condition(key, '$gte', value); }
        lessThan(key, value) { return this._condition(key, '$lt', value); }
        lessThanOrEqualTo(key, value) { return this._condition(key, '$lte', value); }
        sizeEqualTo(key, size) { return this._condition(key, '$size', size); }
        limit(count) { this._limit = count; return this; }
        skip(count) { this._skip = count; return this; }
        ascending(key) { this._order = [key]; return this; }
        descending(key) { this._order = ['-' + key]; return this; }
        addAscending(key) { this._order.push(key); return this; }
        addDescending(key) { this._order.push('-' + key); return this; }
        _find() {
          if (this.className !== '_Conversation') return unavailable('Querying ' + this.className);
          if (this._unsupported.length > 0) {
            return AVPromise.reject(refused(new Error(this._unsupported.join(', ') + ' is not supported in _Conversation queries')));
          }
          const request = { where: this._where, limit: this._limit, skip: this._skip };
          if (this._order.length > 0) request.order = this._order.join(',');
          return AVPromise.resolve(ask('conversations', request)).then((found) => found.map(conversation));
        }
        _first() {
          const saved = this._limit;
          this._limit = 1;
          const found = this._find();
          this._limit = saved;
          return found.then((list) => list[0]);
        }
        find(options) { return withCallbacks(this._find(), options); }
        first(options) { return withCallbacks(this._first(), options); }
        // The old SDK passed null first to a get's error callback.
        get(id, options) {
          const found = this.equalTo('objectId', id)._first()
            .then((object) => object || AVPromise.reject(Object.assign(new Error('Object not found.'), { code: 101 })));
          return withCallbacks(found, options, null);
        }
        count(options) { return withCallbacks(this._find().then((list) => list.length), options); }
      }
      // Text conditions as LeanCloud's SDKs send them: quoted literals in a $regex.
      const quote = (text) => '\\Q' + String(text).split('\\E').join('\\E\\\\E\\Q') + '\\E';
      AVQuery.prototype.contains = function (key, text) { return this._condition(key, '$regex', quote(text)); };
      AVQuery.prototype.startsWith = function (key, text) { return this._condition(key, '$regex', '^' + quote(text)); };
      AVQuery.prototype.endsWith = function (key, text) { return this._condition(key, '$regex', quote(text) + '$'); };
      AVQuery.prototype.matches = function (key, regex, modifiers) {
        const isRegExp = regex instanceof RegExp;
        this._condition(key, '$regex', isRegExp ? regex.source : String(regex));
        const options = isRegExp ? regex.flags.replace(/[^ims]/g, '') : (typeof modifiers === 'string' ? modifiers : '');
        return options === '' ? this : this._condition(key, '$options', options);
      };
      for (const name of ['include', 'select', 'matchesQuery', 'near', 'withinKilometers']) {
        AVQuery.prototype[name] = function () { this._unsupported.push(name); return this; };
      }
      for (const name of ['each', 'destroyAll']) {
        AVQuery.prototype[name] = function () { return unavailable('AV.Query#' + name); };
      }
      // The rest of LeanStorage's classes load, so files that declare them at the top do;
      // their storage calls are refused like any class but _Conversation.
      const AVUser = AVObject.extend('_User');
      AVUser.current = () => null;
      for (const name of ['logIn', 'signUp', 'become', 'logInWithMobilePhone', 'requestPasswordReset']) {
        AVUser[name] = () => unavailable('AV.User.' + name);
      }
      class AVFile {
        constructor(name) { this._name = name; }
        name() { return this._name; }
        url() { return undefined; }
        save(options) { return withCallbacks(unavailable('Saving files'), options, this); }
      }
      class AVGeoPoint {
        constructor(latitude, longitude) {
          if (Array.isArray(latitude)) [latitude, longitude] = latitude;
          else if (latitude !== null && typeof latitude === 'object') ({ latitude, longitude } = latitude);
          this.latitude = latitude || 0;
          this.longitude = longitude || 0;
        }
        toJSON() { return { __type: 'GeoPoint', latitude: this.latitude, longitude: this.longitude }; }
      }
      class AVACL {
        constructor() { this.permissions = {}; }
        _set(who, access, allowed) { (this.permissions[who] = this.permissions[who] || {})[access] = allowed !== false; }
        setPublicReadAccess(allowed) { this._set('*', 'read', allowed); }
        setPublicWriteAccess(allowed) { this._set('*', 'write', allowed); }
        setReadAccess(user, allowed) { this._set(typeof user === 'string' ? user : user.id, 'read', allowed); }
        setWriteAccess(user, allowed) { this._set(typeof user === 'string' ? user : user.id, 'write', allowed); }
        setRoleReadAccess(role, allowed) { this._set('role:' + (typeof role === 'string' ? role : role.get('name')), 'read', allowed); }
        setRoleWriteAccess(role, allowed) { this._set('role:' + (typeof role === 'string' ? role : role.get('name')), 'write', allowed); }
        toJSON() { return this.permissions; }
      }
      // new AV.Error(code, message), with LeanCloud's codes scripts compare against.
      class AVError extends Error {
        constructor(code, message) { super(message); this.code = code; }
      }
      Object.assign(AVError, {
        OTHER_CAUSE: -1, INTERNAL_SERVER_ERROR: 1, CONNECTION_FAILED: 100, OBJECT_NOT_FOUND: 101, INVALID_QUERY: 102,
        INVALID_CLASS_NAME: 103, MISSING_OBJECT_ID: 104, INVALID_KEY_NAME: 105, INVALID_JSON: 107, TIMEOUT: 124,
        DUPLICATE_VALUE: 137, SCRIPT_FAILED: 141, VALIDATION_ERROR: 142,
      });
    """#
}
