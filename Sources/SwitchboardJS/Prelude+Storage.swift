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
        save() { return Promise.reject(notAvailable('Saving ' + this.className)); }
        fetch() {
          if (this.className !== '_Conversation') return Promise.reject(notAvailable('Fetching ' + this.className));
          return new AVQuery('_Conversation').get(this.id).then((found) => {
            Object.assign(this.attributes, found.attributes);
            this.createdAt = found.createdAt;
            this.updatedAt = found.updatedAt;
            return this;
          });
        }
        destroy() { return Promise.reject(notAvailable('Deleting ' + this.className)); }
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
        find() {
          if (this.className !== '_Conversation') return Promise.reject(notAvailable('Querying ' + this.className));
          if (this._unsupported.length > 0) return Promise.reject(new Error(this._unsupported.join(', ') + ' is not supported in _Conversation queries'));
          const request = { where: this._where, limit: this._limit, skip: this._skip };
          if (this._order.length > 0) request.order = this._order.join(',');
          return ask('conversations', request).then((found) => found.map(conversation));
        }
        first() {
          const saved = this._limit;
          this._limit = 1;
          const found = this.find();
          this._limit = saved;
          return found.then((list) => list[0]);
        }
        get(id) {
          return this.equalTo('objectId', id).first().then((found) => found || Promise.reject(Object.assign(new Error('Object not found.'), { code: 101 })));
        }
        count() { return this.find().then((list) => list.length); }
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
        AVQuery.prototype[name] = function () { return Promise.reject(notAvailable('AV.Query#' + name)); };
      }
    """#
}
