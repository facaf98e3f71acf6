extension Prelude {
    /// `AV.Object`'s classes as the JS SDK has them: `extend` (Backbone-style, with instance
    /// and class properties), `register` for ES classes, the class a LeanStorage class name
    /// decodes to, and the calls on several objects. Part of the prelude's scope.
    static let storageClasses = #"""
      Object.assign(AVObject, {
        _getSubclass(className) {
          if (typeof className !== 'string') throw new Error('AV.Object._getSubclass requires a string argument.');
          return classMap.get(className) || AVObject.extend(className);
        },
        _create(className, attributes, options) {
          const Subclass = AVObject._getSubclass(className);
          return new Subclass(attributes, options);
        },
        new(attributes, options) { return new AVObject(attributes, options); },
        // extend('Todo', protoProps, classProps), or extend({className: 'Todo', ...}).
        extend(className, protoProps, classProps) {
          if (typeof className !== 'string') {
            if (className && hasOwn(className, 'className')) return AVObject.extend.call(this, className.className, className, protoProps);
            throw new Error("AV.Object.extend's first argument should be the className.");
          }
          if (className === 'User') className = '_User';
          const existing = classMap.get(className);
          if (existing && !protoProps && !classProps) return existing;
          const made = existing ? inherit(existing, protoProps, classProps) : inherit(this, Object.assign({}, protoProps, { _className: className }), classProps);
          // Extending a subclass keeps its class name.
          made.extend = function (...args) {
            if (typeof args[0] === 'string' || (args[0] && hasOwn(args[0], 'className'))) return AVObject.extend.apply(made, args);
            return AVObject.extend.apply(made, [className].concat(args));
          };
          made.new = (attributes, options) => new made(attributes, options);
          classMap.set(className, made);
          return made;
        },
        // class Todo extends AV.Object {} is registered by its name (or the one given).
        register(klass, name) {
          if (!(klass.prototype instanceof AVObject)) throw new Error('registered class is not a subclass of AV.Object');
          const className = name || klass.name;
          if (!className) throw new Error('registered class must be named');
          if (name) klass._LCClassName = name;
          classMap.set(className, klass);
        },
        createWithoutData(klass, id, hasData) {
          let Subclass;
          if (typeof klass === 'string') Subclass = AVObject._getSubclass(klass);
          else if (klass && klass.prototype instanceof AVObject) Subclass = klass;
          else throw new Error('class must be a string or a subclass of AV.Object.');
          if (!id) throw new TypeError('The objectId must be provided');
          const object = new Subclass();
          object.id = id;
          object._hasData = hasData;
          return object;
        },
        saveAll(list, options) { return withCallbacks(saveDeep(list, Object.assign({}, options)).then(() => list), options); },
        destroyAll(objects, options) { return withCallbacks(destroyEach(ensureArray(objects)), options); },
        fetchAll(objects, options) {
          const fetched = settleAll(ensureArray(objects).map((object) => {
            if (!object.className) return AVPromise.reject(new Error('object must have className to fetch'));
            if (!object.id) return AVPromise.reject(new Error('object must have id to fetch'));
            if (object.dirty()) return AVPromise.reject(new Error('object is modified but not saved'));
            return storage('object', { className: object.className, id: object.id, include: [], keys: [] }).then((answer) => {
              if (answer === null) throw new AVError(AVError.OBJECT_NOT_FOUND, 'Object not found.');
              object._cleanupUnsetKeys(answer);
              object._finishFetch(object.parse(answer), true);
              return object;
            });
          }));
          return withCallbacks(fetched, options);
        },
      });
      // A subclass: a class extending `parent`, or Backbone's own constructor in protoProps;
      // protoProps on its prototype (defined, so that a className there shadows the getter).
      function inherit(parent, protoProps, classProps) {
        let child;
        if (protoProps && hasOwn(protoProps, 'constructor')) {
          child = protoProps.constructor;
          Object.setPrototypeOf(child, parent);
          child.prototype = Object.create(parent.prototype);
        } else {
          child = class extends parent {};
        }
        for (const key of Object.keys(protoProps || {})) {
          Object.defineProperty(child.prototype, key, { value: protoProps[key], writable: true, configurable: true, enumerable: false });
        }
        Object.defineProperty(child.prototype, 'constructor', { value: child, writable: true, configurable: true, enumerable: false });
        Object.assign(child, classProps);
        child.__super__ = parent.prototype;
        return child;
      }
    """#
}
