extension Prelude {
    /// `AV.Promise` and the Backbone-style callbacks of the callback-era SDKs (avoscloud-sdk,
    /// leancloud-storage 0.x–1.x), with their semantics.
    static let promise = #"""
      // Arrays AV.Promise.when resolved with: a callback of several parameters gets them
      // spread, as the old SDK called it; one of a single parameter gets the array.
      const spreadable = new WeakSet();
      // A Promise; made without an executor, a deferred its maker settles with resolve(value)
      // and reject(error), as `new AV.Promise()` was.
      class AVPromise extends Promise {
        constructor(executor) {
          if (typeof executor === 'function') { super(executor); return; }
          let succeed, fail;
          super((resolveWith, rejectWith) => { succeed = resolveWith; fail = rejectWith; });
          this.resolve = succeed;
          this.reject = fail;
        }
        static as(value) { return AVPromise.resolve(value); }
        static error(error) { return AVPromise.reject(error); }
        static is(value) { return value !== null && typeof value === 'object' && typeof value.then === 'function'; }
        static when(...promises) {
          const list = promises.length === 1 && Array.isArray(promises[0]) ? promises[0] : promises;
          return AVPromise.all(list).then((values) => { spreadable.add(values); return values; });
        }
        static _continueWhile(predicate, step) {
          return predicate() ? AVPromise.resolve(step()).then(() => AVPromise._continueWhile(predicate, step)) : AVPromise.resolve();
        }
        then(onFulfilled, onRejected) {
          const spread = typeof onFulfilled === 'function' && onFulfilled.length > 1
            ? (value) => (spreadable.has(value) ? onFulfilled(...value) : onFulfilled(value))
            : onFulfilled;
          return super.then(spread, onRejected);
        }
        always(fn) { return this.then(fn, fn); }
        done(fn) { return this.then(fn); }
        fail(fn) { return this.catch(fn); }
      }

      // `{success, error}` options, or a callback(result, error), run when `promise` settles;
      // the Promise is returned still. An object's own operations pass it (`model`) first to
      // `error`, as the old SDK did. What a callback throws is logged: no caller sees it.
      function withCallbacks(promise, options, model) {
        let success, failure;
        if (typeof options === 'function') {
          success = (result) => options(result, null);
          failure = (error) => options(null, error);
        } else if (options !== null && typeof options === 'object') {
          if (typeof options.success === 'function') success = options.success;
          if (typeof options.error === 'function') failure = model === undefined ? options.error : (error) => options.error(model, error);
        }
        if (!success && !failure) return promise;
        const run = (callback, value) => {
          try { callback(value); } catch (e) { write('error', 'a callback threw: ' + describeError(e)); throw e; }
        };
        return promise.then(
          (result) => { if (success) run(success, result); return result; },
          (error) => { if (failure) run(failure, error); throw error; }
        );
      }
    """#
}
