extension Prelude {
    /// How `AV.Object`'s saves and deletes go to the server: side by side in one round of
    /// questions, objects pointed to first, each object's saves in the order they were made.
    /// Part of the prelude's scope.
    static let storageSaves = #"""
      // Saves each object side by side (one round of questions), each after its own saves
      // before; a Promise for each, settled with the object or its error.
      function saveEach(objects, options, stack = new Error().stack) {
        return objects.map((object) => {
          object._startSave();
          const saved = AVPromise.resolve(object._allPreviousSaves).catch(() => {})
            .then(() => {
              const request = object._saveRequest(options);
              return storage(request.action, request, stack);
            })
            .then((answer) => { object._finishSave(object.parse(answer)); return object; }, (error) => { object._cancelSave(); throw error; });
          object._allPreviousSaves = saved;
          return saved;
        });
      }
      // The objects among `roots` and what they point to that have changes to save.
      function unsavedObjects(roots) {
        const found = [];
        const seen = new Set();
        const visit = (value) => {
          if (value instanceof AVObject) {
            if (seen.has(value)) return;
            seen.add(value);
            visit(value.attributes);
            if (value.dirty()) found.push(value);
          } else if (value instanceof AVFile) {
            if (!value.id) throw new Error('Tried to save an object containing an unsaved file.');
          } else if (Array.isArray(value)) {
            value.forEach(visit);
          } else if (isPlainObject(value)) {
            Object.values(value).forEach(visit);
          }
        };
        visit(roots);
        return found;
      }
      // Whether everything an object points to has an id, so that it can be sent.
      function canBeSent(value, top = true) {
        if (value instanceof AVObject) return top ? canBeSent(value.attributes, false) : Boolean(value.id);
        if (Array.isArray(value)) return value.every((item) => canBeSent(item, false));
        if (isPlainObject(value)) return Object.values(value).every((item) => canBeSent(item, false));
        return true;
      }
      // Saves the unsaved objects `roots` reach, those pointed to first, a round of
      // questions per step; fails with the first error, its `results` the batch's outcomes.
      function saveDeep(roots, options) {
        const stack = new Error().stack;
        let remaining;
        try { remaining = unsavedObjects(roots); } catch (e) { return AVPromise.reject(e); }
        const step = () => {
          if (remaining.length === 0) return AVPromise.resolve();
          const batch = remaining.filter((object) => canBeSent(object));
          remaining = remaining.filter((object) => !batch.includes(object));
          if (batch.length === 0) return AVPromise.reject(new AVError(AVError.OTHER_CAUSE, 'Tried to save a batch with a cycle.'));
          return settleAll(saveEach(batch, options, stack)).then(step);
        };
        return step();
      }
      // Deletes the objects side by side (one round of questions); `stack` as ask's.
      function destroyEach(objects, stack = new Error().stack) {
        const sent = objects.filter((object) => object.id);
        return settleAll(sent.map((object) => storage('delete', { className: object.className, id: object.id }, stack))).then(() => undefined);
      }
      // The values, or the first error (by position) with every outcome as its `results`.
      function settleAll(promises) {
        return AVPromise.all(promises.map((promise) => promise.then((value) => value, (error) => (error instanceof Error ? error : new Error(String(error))))))
          .then((results) => {
            const failed = results.find((result) => result instanceof Error);
            if (!failed) return results;
            const error = new AVError(failed.code, failed.message);
            error.results = results;
            throw error;
          });
      }
    """#
}
