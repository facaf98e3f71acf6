extension Prelude {
    /// `AV.Promise`, the callback-era API on a Promise of its own.
    static let promise = #"""
      // The callback-era helpers of AV.Promise, on a Promise of its own.
      class AVPromise extends Promise {
        static as(value) { return AVPromise.resolve(value); }
        static error(error) { return AVPromise.reject(error); }
        static when(...promises) { return AVPromise.all(promises.length === 1 && Array.isArray(promises[0]) ? promises[0] : promises); }
        always(fn) { return this.then(fn, fn); }
        done(fn) { return this.then(fn); }
        fail(fn) { return this.catch(fn); }
      }
    """#
}
