extension Prelude {
    /// `AV.Object` as the JS SDK (leancloud-storage 4) has it, over the server's storage
    /// calls: what the store last gave (`_serverData`) plus the pending ops of each save in
    /// flight and of the next (`_opSetQueue`) make `attributes`; a save sends its ops only.
    /// Part of the prelude's scope.
    static let storageObject = #"""
      const reservedKeys = ['objectId', 'createdAt', 'updatedAt'];
      // Classes by LeanStorage class name: what a Pointer of that class decodes to.
      const classMap = new Map();

      // new AV.Object('Todo', attributes), or a subclass's new Todo(attributes).
      function AVObject(attributes, options) {
        if (typeof attributes === 'string') return AVObject._create(attributes, options);
        if (!(this instanceof AVObject)) throw new TypeError("AV.Object must be called with 'new'");
        this._serverData = {};
        this._opSetQueue = [{}];
        // JSON of the arrays and objects the store last gave, to notice ones changed in place.
        this._hashedJSON = {};
        this._hasData = true;
        this.attributes = {};
        const defaults = typeof this.defaults === 'function' ? this.defaults() : this.defaults;
        this.set(Object.assign({}, defaults, attributes));
        this.initialize.apply(this, arguments);
      }
      Object.defineProperty(AVObject.prototype, 'className', {
        get() {
          const name = this._className || this.constructor._LCClassName || this.constructor.name;
          return name === 'User' ? '_User' : name;
        },
        configurable: true,
      });
      Object.defineProperty(AVObject, 'query', {
        get() { return new AVQuery(this.prototype.className); },
        configurable: true,
      });
      const checkReservedKey = (key) => {
        if (reservedKeys.includes(key)) throw new Error('key[' + key + '] is reserved');
      };
      const isContainer = (value) => Array.isArray(value) || isPlainObject(value);

      Object.assign(AVObject.prototype, {
        initialize() {},
        _fetchWhenSave: false,
        getObjectId() { return this.id; },
        getCreatedAt() { return this.createdAt; },
        getUpdatedAt() { return this.updatedAt; },
        isNew() { return !this.id; },
        get(key) {
          if (key === 'objectId') return this.id;
          if (key === 'createdAt' || key === 'updatedAt') return this[key];
          return this.attributes[key];
        },
        has(key) { return this.attributes[key] !== undefined && this.attributes[key] !== null; },
        // set(key, value) or set({key: value, ...}); {unset: true} makes each an Unset.
        set(key, value, options) {
          const attributes = {};
          if (key === null || key === undefined || typeof key === 'object') {
            for (const name of Object.keys(key || {})) {
              checkReservedKey(name);
              attributes[name] = decodeValue(key[name], name);
            }
            options = value;
          } else {
            checkReservedKey(key);
            attributes[key] = decodeValue(value, key);
          }
          const pending = this._opSetQueue[this._opSetQueue.length - 1];
          for (const name of Object.keys(attributes)) {
            let op = options && options.unset ? new UnsetOp() : attributes[name];
            if (!(op instanceof Op)) op = new SetOp(op);
            pending[name] = op.merge(pending[name]);
          }
          this._rebuild();
          return this;
        },
        unset(key, options) { return this.set(key, null, Object.assign({}, options, { unset: true })); },
        clear(options) { return this.set(Object.assign({}, this.attributes), Object.assign({}, options, { unset: true })); },
        increment(key, amount) { return this.set(key, new IncrementOp(amount === undefined || amount === null ? 1 : amount)); },
        add(key, item) { return this.set(key, new ArrayOp('Add', ensureArray(item))); },
        addUnique(key, item) { return this.set(key, new ArrayOp('AddUnique', ensureArray(item))); },
        remove(key, item) { return this.set(key, new ArrayOp('Remove', ensureArray(item))); },
        bitAnd(key, value) { return this.set(key, new BitOp('BitAnd', value)); },
        bitOr(key, value) { return this.set(key, new BitOp('BitOr', value)); },
        bitXor(key, value) { return this.set(key, new BitOp('BitXor', value)); },
        op(key) { return this._opSetQueue[this._opSetQueue.length - 1][key]; },
        dirty(key) {
          this._refreshCache();
          const pending = this._opSetQueue[this._opSetQueue.length - 1];
          if (key) return Boolean(pending[key]);
          return !this.id || Object.keys(pending).length > 0;
        },
        dirtyKeys() {
          this._refreshCache();
          return Object.keys(this._opSetQueue[this._opSetQueue.length - 1]);
        },
        revert(keys) {
          const pending = this._opSetQueue[this._opSetQueue.length - 1];
          for (const key of ensureArray(keys || Object.keys(pending))) delete pending[key];
          this._rebuild();
          return this;
        },
        clone() { return new this.constructor(this.attributes); },
        setACL(acl, options) { return this.set('ACL', acl, options); },
        getACL() { return this.get('ACL'); },
        // Deprecated in the SDK for save's fetchWhenSave option; kept for old code.
        fetchWhenSave(enable) {
          if (typeof enable !== 'boolean') throw new Error('Expect boolean value for fetchWhenSave');
          this._fetchWhenSave = enable;
        },
        // No class hooks run here (beforeSave and the like are listed as not run), so there
        // is none to skip.
        disableBeforeHook() {},
        disableAfterHook() {},
        ignoreHook() {},
        relation(key) { throw notAvailable('AV.Relation (' + key + ' of ' + this.className + ')'); },
        toJSON() { return this._toFullJSON([], false); },
        toFullJSON(seen) { return this._toFullJSON(seen || []); },
        _toFullJSON(seen, full = true) {
          const json = {};
          const seenNow = Array.isArray(seen) ? seen.concat(this) : undefined;
          for (const key of Object.keys(this.attributes)) json[key] = encodeValue(this.attributes[key], seenNow, full);
          if (hasOwn(this, 'id')) json.objectId = this.id;
          for (const key of ['createdAt', 'updatedAt']) {
            if (hasOwn(this, key)) json[key] = this[key] instanceof Date ? this[key].toJSON() : this[key];
          }
          if (full) {
            json.__type = Array.isArray(seen) && seen.length > 0 ? 'Pointer' : 'Object';
            json.className = this.className;
          }
          return json;
        },
        _toPointer() { return { __type: 'Pointer', className: this.className, objectId: this.id }; },

        // attributes: what the store last gave with every pending op applied.
        _rebuild() {
          const attributes = Object.assign({}, this._serverData);
          for (const ops of this._opSetQueue) applyOps(ops, attributes);
          this.attributes = attributes;
        },
        // An array or object changed in place since the store gave it is set whole.
        _refreshCache() {
          const pending = this._opSetQueue[this._opSetQueue.length - 1];
          for (const key of Object.keys(this.attributes)) {
            const value = this.attributes[key];
            if (!isContainer(value)) continue;
            const json = stringify(encodeValue(value));
            if (hasOwn(this._hashedJSON, key) && this._hashedJSON[key] !== json && !pending[key]) pending[key] = new SetOp(value);
            this._hashedJSON[key] = json;
          }
        },
        _hashContainers() {
          this._hashedJSON = {};
          for (const key of Object.keys(this.attributes)) {
            if (isContainer(this.attributes[key])) this._hashedJSON[key] = stringify(encodeValue(this.attributes[key]));
          }
        },
        // A store's answer: createdAt and updatedAt as Dates, updatedAt = createdAt on create.
        parse(answer) {
          const output = Object.assign({}, answer);
          for (const key of ['createdAt', 'updatedAt']) if (typeof output[key] === 'string') output[key] = parseDate(output[key]);
          if (output.createdAt && !output.updatedAt) output.updatedAt = output.createdAt;
          return output;
        },
        _mergeMagicFields(fields) {
          if (fields.objectId) this.id = fields.objectId;
          for (const key of ['createdAt', 'updatedAt']) {
            if (fields[key]) this[key] = fields[key] instanceof Date ? fields[key] : parseDate(fields[key].iso || fields[key]);
          }
          for (const key of reservedKeys) delete fields[key];
        },
        _finishFetch(fields, hasData) {
          this._opSetQueue = [{}];
          this._mergeMagicFields(fields);
          for (const key of Object.keys(fields)) this._serverData[key] = decodeValue(fields[key], key);
          this._rebuild();
          this._hashContainers();
          this._hasData = hasData;
        },
        // Fields a fetch did not bring back are gone, of those it asked for.
        _cleanupUnsetKeys(fields, keys) {
          for (const key of keys || Object.keys(this._serverData)) if (fields[key] === undefined) delete this._serverData[key];
        },
        _startSave() { this._opSetQueue.push({}); },
        // The saved ops become what the store has, with what it answered (fetchWhenSave's
        // fields) over them; an object it gave back as a bare pointer stays the one known here.
        _finishSave(answer) {
          const known = new Map();
          for (const value of Object.values(this.attributes)) {
            for (const item of ensureArray(value)) if (item instanceof AVObject && item.id && item._hasData) known.set(item.id, item);
          }
          const saved = this._opSetQueue.shift();
          applyOps(saved, this._serverData);
          this._mergeMagicFields(answer);
          const keep = (value) => (value instanceof AVObject && !value._hasData && known.has(value.id) ? known.get(value.id) : value);
          for (const key of Object.keys(answer)) {
            const value = decodeValue(answer[key], key);
            this._serverData[key] = Array.isArray(value) ? value.map(keep) : keep(value);
          }
          this._rebuild();
          this._hashContainers();
        },
        // A failed save's ops go back in front of what was set since.
        _cancelSave() {
          const failed = this._opSetQueue.shift();
          const next = this._opSetQueue[0];
          for (const key of Object.keys(failed)) next[key] = next[key] ? next[key].merge(failed[key]) : failed[key];
          this._rebuild();
        },
        _saveRequest(options) {
          const request = {
            action: this.id ? 'update' : 'create', className: this.className,
            body: encodeValue(this._opSetQueue[0]), fetchWhenSave: Boolean(this._fetchWhenSave || options.fetchWhenSave),
          };
          if (this.id) request.id = this.id;
          if (options.query) {
            if (typeof options.query._getParams !== 'function') throw new Error('options.query is not an AV.Query');
            request.where = options.query._getParams().where;
          }
          return request;
        },

        // fetch({include, keys}, options); old code's fetch({success, error}) too.
        fetch(fetchOptions, options) {
          if (!this.id) throw new Error('Cannot fetch unsaved object');
          const given = fetchOptions || {};
          const keys = given.keys ? ensureArray(given.keys).join(',').split(',') : undefined;
          const request = { className: this.className, id: this.id, include: ensureArray(given.include).join(',').split(',').filter(Boolean), keys: keys || [] };
          const fetched = storage('object', request).then((answer) => {
            // The store answers nothing for an object that is not there; the SDK then
            // leaves the object without its fields (LeanStorage answered {}).
            const fields = this.parse(answer || {});
            this._cleanupUnsetKeys(fields, keys);
            this._finishFetch(fields, true);
            return this;
          });
          return withCallbacks(fetched, options === undefined ? fetchOptions : options, this);
        },
        // save(), save(attributes, options), save(key, value, options), save(null, options);
        // options: fetchWhenSave, query (saved only if it still matches), success, error.
        save(key, value, more) {
          let attributes, options;
          if (key === null || key === undefined || typeof key === 'object') { attributes = key; options = value; }
          else { attributes = { [key]: value }; options = more; }
          options = Object.assign({}, options);
          if (attributes) this.set(attributes);
          const unsaved = unsavedObjects([this]);
          const saved = unsaved.length > 1 ? saveDeep([this], options).then(() => this) : saveEach([this], options)[0];
          return withCallbacks(saved, options, this);
        },
        destroy(options) {
          const destroyed = this.id ? storage('delete', { className: this.className, id: this.id }).then(() => this) : AVPromise.resolve(this);
          return withCallbacks(destroyed, options, this);
        },
      });
    """#
}
