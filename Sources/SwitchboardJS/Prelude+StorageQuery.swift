extension Prelude {
    /// `AV.Query` as the JS SDK (leancloud-storage 4) has it: conditions build LeanStorage's
    /// `where` (values encoded, so an `AV.Object` is a Pointer and a Date a Date), which the
    /// server runs against the app's data. Part of the prelude's scope.
    static let storageQuery = #"""
      const requires = (value, message) => {
        if (value === undefined) throw new Error(message);
      };
      // Text conditions as LeanCloud's SDKs send them: quoted literals in a $regex.
      const quote = (text) => '\\Q' + String(text).split('\\E').join('\\E\\\\E\\Q') + '\\E';
      const sameClass = (queries) => {
        const className = queries.length > 0 ? queries[0].className : undefined;
        if (queries.some((query) => query.className !== className)) throw new Error('All queries must be for the same class');
        return className;
      };

      class AVQuery {
        // new AV.Query('Todo') or new AV.Query(Todo), Todo an AV.Object subclass.
        constructor(objectClass) {
          if (typeof objectClass === 'string') objectClass = AVObject._getSubclass(objectClass);
          if (typeof objectClass !== 'function' || !(objectClass === AVObject || objectClass.prototype instanceof AVObject)) {
            throw new TypeError('AV.Query needs a class name or an AV.Object subclass');
          }
          this.objectClass = objectClass;
          this.className = objectClass.prototype.className;
          this._where = {};
          this._include = [];
          this._select = [];
          // Not sent while negative: the store's default (100).
          this._limit = -1;
          this._skip = 0;
          this._order = undefined;
        }
        static or(...queries) { return new AVQuery(sameClass(queries))._orQuery(queries); }
        static and(...queries) { return new AVQuery(sameClass(queries))._andQuery(queries); }
        static doCloudQuery() { return unavailable('AV.Query.doCloudQuery (CQL)'); }
        static fromJSON({ className, where, include, select, limit, skip, order }) {
          if (typeof className !== 'string') throw new TypeError('Invalid Query JSON, className must be a String.');
          return Object.assign(new AVQuery(className), {
            _where: where || {}, _include: include || [], _select: select || [], _limit: limit === undefined ? -1 : limit, _skip: skip || 0, _order: order,
          });
        }
        toJSON() {
          return {
            className: this.className, where: this._where, include: this._include, select: this._select,
            limit: this._limit, skip: this._skip, order: this._order,
          };
        }
        _getParams() {
          const params = { where: this._where };
          if (this._include.length > 0) params.include = this._include.join(',');
          if (this._select.length > 0) params.keys = this._select.join(',');
          if (this._limit >= 0) params.limit = this._limit;
          if (this._skip > 0) params.skip = this._skip;
          if (this._order !== undefined) params.order = this._order;
          return params;
        }
        _newObject(json) {
          const object = new this.objectClass();
          object._finishFetch(json, true);
          return object;
        }
        _find(params, stack) { return storage('find', Object.assign({ className: this.className }, params), stack); }

        _addCondition(key, condition, value) {
          requires(key, 'undefined is not a valid condition key');
          requires(condition, 'undefined is not a valid condition');
          requires(value, 'undefined is not a valid condition value');
          // A condition joins the key's other operators, not a value equalTo gave it.
          const current = this._where[key];
          const operators = isPlainObject(current) && Object.keys(current).every((name) => name.charAt(0) === '$') ? current : {};
          operators[condition] = encodeValue(value);
          this._where[key] = operators;
          return this;
        }
        equalTo(key, value) {
          requires(key, 'undefined is not a valid key');
          requires(value, 'undefined is not a valid value');
          this._where[key] = encodeValue(value);
          return this;
        }
        notEqualTo(key, value) { return this._addCondition(key, '$ne', value); }
        lessThan(key, value) { return this._addCondition(key, '$lt', value); }
        lessThanOrEqualTo(key, value) { return this._addCondition(key, '$lte', value); }
        greaterThan(key, value) { return this._addCondition(key, '$gt', value); }
        greaterThanOrEqualTo(key, value) { return this._addCondition(key, '$gte', value); }
        containedIn(key, values) { return this._addCondition(key, '$in', values); }
        notContainedIn(key, values) { return this._addCondition(key, '$nin', values); }
        containsAll(key, values) { return this._addCondition(key, '$all', values); }
        sizeEqualTo(key, size) { return this._addCondition(key, '$size', size); }
        exists(key) { return this._addCondition(key, '$exists', true); }
        doesNotExist(key) { return this._addCondition(key, '$exists', false); }
        contains(key, text) { return this._addCondition(key, '$regex', quote(text)); }
        startsWith(key, text) { return this._addCondition(key, '$regex', '^' + quote(text)); }
        endsWith(key, text) { return this._addCondition(key, '$regex', quote(text) + '$'); }
        matches(key, regex, modifiers) {
          const isRegExp = regex instanceof RegExp;
          this._addCondition(key, '$regex', isRegExp ? regex.source : String(regex));
          const options = isRegExp ? regex.flags.replace(/[^ims]/g, '') : (typeof modifiers === 'string' ? modifiers : '');
          return options === '' ? this : this._addCondition(key, '$options', options);
        }
        // The subquery's own parameters with its className, as the SDK sends them.
        _subquery(query) { return Object.assign(query._getParams(), { className: query.className }); }
        matchesQuery(key, query) { return this._addCondition(key, '$inQuery', this._subquery(query)); }
        doesNotMatchQuery(key, query) { return this._addCondition(key, '$notInQuery', this._subquery(query)); }
        matchesKeyInQuery(key, queryKey, query) { return this._addCondition(key, '$select', { key: queryKey, query: this._subquery(query) }); }
        doesNotMatchKeyInQuery(key, queryKey, query) { return this._addCondition(key, '$dontSelect', { key: queryKey, query: this._subquery(query) }); }
        _orQuery(queries) { this._where.$or = queries.map((query) => query._getParams().where); return this; }
        _andQuery(queries) { this._where.$and = queries.map((query) => query._getParams().where); return this; }
        // Geo conditions go to the store as the SDK sends them; it says which it can answer.
        near(key, point) { return this._addCondition(key, '$nearSphere', point instanceof AVGeoPoint ? point : new AVGeoPoint(point)); }
        withinRadians(key, point, distance) { return this.near(key, point)._addCondition(key, '$maxDistance', distance); }
        withinMiles(key, point, distance) { return this.withinRadians(key, point, distance / 3958.8); }
        withinKilometers(key, point, distance) { return this.withinRadians(key, point, distance / 6371.0); }
        withinGeoBox(key, southwest, northeast) {
          const box = [southwest, northeast].map((point) => (point instanceof AVGeoPoint ? point : new AVGeoPoint(point)));
          return this._addCondition(key, '$within', { $box: box });
        }
        include(...keys) {
          requires(keys[0], 'undefined is not a valid key');
          for (const key of keys) this._include = this._include.concat(ensureArray(key));
          return this;
        }
        select(...keys) {
          requires(keys[0], 'undefined is not a valid key');
          for (const key of keys) this._select = this._select.concat(ensureArray(key));
          return this;
        }
        // ACLs are kept but not enforced here: there is nothing more to return.
        includeACL() { return this; }
        limit(count) { requires(count, 'undefined is not a valid limit value'); this._limit = count; return this; }
        skip(count) { requires(count, 'undefined is not a valid skip value'); this._skip = count; return this; }
        ascending(key) { requires(key, 'undefined is not a valid key'); this._order = key; return this; }
        descending(key) { requires(key, 'undefined is not a valid key'); this._order = '-' + key; return this; }
        addAscending(key) { requires(key, 'undefined is not a valid key'); this._order = this._order ? this._order + ',' + key : key; return this; }
        addDescending(key) { requires(key, 'undefined is not a valid key'); this._order = (this._order ? this._order + ',' : '') + '-' + key; return this; }

        find(options) {
          return withCallbacks(this._find(this._getParams()).then((answer) => answer.results.map((json) => this._newObject(json))), options);
        }
        findAndCount(options) {
          const found = this._find(Object.assign(this._getParams(), { count: 1 }))
            .then((answer) => [answer.results.map((json) => this._newObject(json)), answer.count]);
          return withCallbacks(found, options);
        }
        first(options) {
          const found = this._find(Object.assign(this._getParams(), { limit: 1 }))
            .then((answer) => (answer.results.length > 0 ? this._newObject(answer.results[0]) : undefined));
          return withCallbacks(found, options);
        }
        count(options) {
          return withCallbacks(this._find(Object.assign(this._getParams(), { limit: 0, count: 1 })).then((answer) => answer.count), options);
        }
        // The object with this id, whatever the conditions (as the SDK's, which GETs it);
        // old code's error callback gets null first.
        get(id, options) {
          if (typeof id !== 'string') throw new Error('objectId must be a string');
          const notFound = () => new AVError(AVError.OBJECT_NOT_FOUND, 'Object not found.');
          const found = id === '' ? AVPromise.reject(notFound())
            : storage('object', { className: this.className, id, include: this._include, keys: this._select }).then((answer) => {
              if (answer === null) throw notFound();
              const object = new this.objectClass();
              object._finishFetch(object.parse(answer), true);
              return object;
            });
          return withCallbacks(found, options, null);
        }
        // Calls `callback` for every match in objectId order, a page (and a round of
        // questions) at a time.
        each(callback, options = {}) {
          if (this._order || this._skip || this._limit >= 0) {
            return AVPromise.reject(new Error('Cannot iterate on a query with sort, skip, or limit.'));
          }
          const query = new AVQuery(this.objectClass);
          query._limit = options.batchSize || 100;
          query._where = Object.assign({}, this._where);
          query._include = this._include.slice();
          query.ascending('objectId');
          let finished = false;
          const stack = new Error().stack;
          const page = () => query._find(query._getParams(), stack).then((answer) => {
            const results = answer.results.map((json) => query._newObject(json));
            let done = AVPromise.resolve();
            for (const result of results) done = done.then(() => callback(result));
            return done.then(() => {
              if (results.length >= query._limit) query.greaterThan('objectId', results[results.length - 1].id);
              else finished = true;
            });
          });
          return AVPromise._continueWhile(() => !finished, page);
        }
        destroyAll(options) {
          const stack = new Error().stack;
          const destroyed = this._find(this._getParams(), stack).then((answer) => destroyEach(answer.results.map((json) => this._newObject(json)), stack));
          return withCallbacks(destroyed, options);
        }
        // A walk through every match ({orderedBy, batchSize}), as the SDK's: next() gives
        // {done, value}; a page of the store's scan at a time.
        scan({ orderedBy, batchSize } = {}) {
          const request = { className: this.className, where: this._where, limit: batchSize || 0 };
          if (orderedBy) request.scanKey = orderedBy;
          let cursor;
          const waiting = [];
          // A page may hold no match and still not be the last: the next one is asked for.
          const next = (stack = new Error().stack) => {
            if (waiting.length > 0) return AVPromise.resolve({ done: false, value: waiting.shift() });
            if (cursor === null) return AVPromise.resolve({ done: true });
            return storage('scan', Object.assign({}, request, cursor ? { cursor } : {}), stack).then((answer) => {
              cursor = answer.cursor;
              for (const json of answer.results) waiting.push(this._newObject(json));
              return next(stack);
            });
          };
          return { next: () => next() };
        }
      }
    """#
}
