extension Prelude {
    /// An `AV.Object`'s pending changes to a field, as the JS SDK's `AV.Op`: each merges
    /// with the change before it (two increments are one), estimates the field's value
    /// locally (so `get` shows it), and is sent as LeanStorage's `__op` JSON, which the
    /// store applies in its transaction. Part of the prelude's scope.
    static let storageOps = #"""
      // What an Unset op estimates: the field goes.
      const UNSET = {};
      class Op {
        static _fromJSON(json) {
          switch (json.__op) {
            case 'Delete': return new UnsetOp();
            case 'Increment': return new IncrementOp(json.amount);
            case 'Decrement': return new IncrementOp(-json.amount);
            case 'Add': case 'AddUnique': case 'Remove': return new ArrayOp(json.__op, decodeValue(ensureArray(json.objects)));
            case 'BitAnd': case 'BitOr': case 'BitXor': return new BitOp(json.__op, json.value);
            default: return new SetOp(json);
          }
        }
        invalidAfter() { return new Error('Op is invalid after previous op.'); }
      }
      class SetOp extends Op {
        constructor(value) { super(); this.value = value; }
        toJSON() { return encodeValue(this.value); }
        merge() { return this; }
        estimate() { return this.value; }
      }
      class UnsetOp extends Op {
        toJSON() { return { __op: 'Delete' }; }
        merge() { return this; }
        estimate() { return UNSET; }
      }
      class IncrementOp extends Op {
        constructor(amount) { super(); this.amount = amount; }
        toJSON() { return { __op: 'Increment', amount: this.amount }; }
        merge(previous) {
          if (!previous) return this;
          if (previous instanceof UnsetOp) return new SetOp(this.amount);
          if (previous instanceof SetOp) return new SetOp(previous.value + this.amount);
          if (previous instanceof IncrementOp) return new IncrementOp(previous.amount + this.amount);
          throw this.invalidAfter();
        }
        estimate(old) { return old ? old + this.amount : this.amount; }
      }
      const sameObject = (a, b) => a === b || (a instanceof AVObject && b instanceof AVObject && a.id !== undefined && a.id === b.id);
      const unique = (list) => list.filter((item, index) => list.findIndex((other) => sameObject(item, other)) === index);
      // Add, AddUnique or Remove of `objects`.
      class ArrayOp extends Op {
        constructor(kind, objects) { super(); this.kind = kind; this.objects = kind === 'Add' ? objects : unique(objects); }
        toJSON() { return { __op: this.kind, objects: encodeValue(this.objects) }; }
        merge(previous) {
          if (!previous) return this;
          if (previous instanceof UnsetOp) return this.kind === 'Remove' ? previous : new SetOp(this.objects);
          if (previous instanceof SetOp) return new SetOp(this.estimate(previous.value));
          if (previous instanceof ArrayOp && previous.kind === this.kind) {
            return new ArrayOp(this.kind, this.kind === 'AddUnique' ? this.estimate(previous.objects) : previous.objects.concat(this.objects));
          }
          throw this.invalidAfter();
        }
        estimate(old) {
          const list = Array.isArray(old) ? old : [];
          switch (this.kind) {
            case 'Add': return list.concat(this.objects);
            case 'AddUnique': {
              const result = list.slice();
              for (const object of this.objects) {
                const at = result.findIndex((other) => sameObject(other, object));
                if (at < 0) result.push(object); else if (object instanceof AVObject) result[at] = object;
              }
              return result;
            }
            default: return list.filter((item) => !this.objects.some((object) => sameObject(item, object)));
          }
        }
      }
      // BitAnd, BitOr or BitXor with `value`.
      class BitOp extends Op {
        constructor(kind, value) { super(); this.kind = kind; this.value = value; }
        toJSON() { return { __op: this.kind, value: this.value }; }
        merge(previous) {
          if (!previous) return this;
          if (previous instanceof UnsetOp) return new SetOp(this.estimate(0));
          if (previous instanceof SetOp) return new SetOp(this.estimate(previous.value));
          throw this.invalidAfter();
        }
        estimate(old) {
          const base = old || 0;
          return this.kind === 'BitAnd' ? base & this.value : this.kind === 'BitOr' ? base | this.value : base ^ this.value;
        }
      }
      // Applies a set of ops (by key; `a.b` reaches into an Object field) to fields, copying
      // what it changes on the way: the fields the store last gave stay as they were.
      function applyOps(ops, fields) {
        for (const key of Object.keys(ops)) {
          const path = key.split('.');
          const last = path.pop();
          let container = fields;
          for (const name of path) {
            const inner = container[name];
            container[name] = isPlainObject(inner) ? Object.assign({}, inner) : {};
            container = container[name];
          }
          const value = ops[key].estimate(container[last]);
          if (value === UNSET) delete container[last]; else container[last] = value;
        }
        return fields;
      }
    """#
}
