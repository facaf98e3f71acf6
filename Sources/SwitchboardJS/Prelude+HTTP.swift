extension Prelude {
    /// `AV.Cloud.httpRequest` and `fetch`, part of the prelude's scope (it uses `ask`). The
    /// server makes each request, for hosts listed in `hooks.http.allow` only, and ends it
    /// with the call's budget; the script waits without using CPU.
    static let http = #"""
      function headerPairs(headers) {
        const pairs = [];
        if (headers === undefined || headers === null) return pairs;
        if (headers instanceof Headers) return headers._pairs.slice();
        if (Array.isArray(headers)) { for (const [name, value] of headers) pairs.push([String(name), String(value)]); return pairs; }
        for (const name of Object.keys(headers)) if (headers[name] !== undefined) pairs.push([name, String(headers[name])]);
        return pairs;
      }
      function formEncode(object) {
        return Object.keys(object).map((key) => encodeURIComponent(key) + '=' + encodeURIComponent(describe(object[key]))).join('&');
      }
      class Headers {
        constructor(pairs) { this._pairs = pairs; }
        get(name) {
          const lower = String(name).toLowerCase();
          const values = this._pairs.filter((pair) => pair[0].toLowerCase() === lower).map((pair) => pair[1]);
          return values.length === 0 ? null : values.join(', ');
        }
        has(name) { return this.get(name) !== null; }
        forEach(fn) { for (const [name, value] of this._pairs) fn(value, name.toLowerCase(), this); }
        entries() { return this._pairs.map(([name, value]) => [name.toLowerCase(), value])[Symbol.iterator](); }
        [Symbol.iterator]() { return this.entries(); }
      }
      function send(method, url, headers, body, followRedirects) {
        const request = { method: String(method || 'GET'), url, headers, followRedirects };
        if (body !== undefined && body !== null) request.body = typeof body === 'string' ? body : String(body);
        return ask('http', request);
      }

      // LeanEngine's: resolves with the response when its status is 2xx, rejects with it
      // otherwise; the success/error callbacks of old code are called too.
      function httpRequest(options) {
        const done = new Promise((succeed, fail) => {
          if (options === null || typeof options !== 'object' || typeof options.url !== 'string') {
            throw new TypeError('AV.Cloud.httpRequest needs { url }');
          }
          let url = options.url;
          if (options.params !== undefined && options.params !== null) {
            const query = typeof options.params === 'string' ? options.params : formEncode(options.params);
            if (query !== '') url += (url.indexOf('?') < 0 ? '?' : '&') + query;
          }
          const headers = headerPairs(options.headers);
          let body = options.body;
          if (body !== undefined && body !== null && typeof body === 'object') {
            const type = new Headers(headers).get('content-type');
            if (type === null) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
            body = type !== null && /json/i.test(type) ? stringify(body) : formEncode(body);
          }
          send(options.method, url, headers, body, options.followRedirects === true).then((answer) => {
            const response = { status: answer.status, url: answer.url, headers: {}, text: answer.body, buffer: answer.body };
            for (const [name, value] of answer.headers) response.headers[name.toLowerCase()] = value;
            try { response.data = parse(answer.body); } catch (e) { response.data = undefined; }
            if (answer.status >= 200 && answer.status < 300) succeed(response); else fail(response);
          }, fail);
        });
        if (typeof options === 'object' && options !== null) {
          if (typeof options.success === 'function') done.then(options.success, () => {});
          if (typeof options.error === 'function') done.catch(options.error);
        }
        return done;
      }

      // The standard's, for what scripts usually do with it: text or JSON back.
      function fetch(input, init) {
        return new Promise((succeed, fail) => {
          const options = init === undefined || init === null ? {} : init;
          const url = typeof input === 'string' ? input : input && typeof input.url === 'string' ? input.url : String(input);
          const redirect = options.redirect === undefined ? 'follow' : options.redirect;
          send(options.method, url, headerPairs(options.headers), options.body, redirect === 'follow').then((answer) => {
            if (redirect === 'error' && answer.status >= 300 && answer.status < 400) throw new TypeError('fetch: ' + url + ' redirected');
            let used = false;
            const read = () => {
              if (used) return Promise.reject(new TypeError('fetch: the body was read already'));
              used = true;
              return Promise.resolve(answer.body);
            };
            succeed(Object.freeze({
              ok: answer.status >= 200 && answer.status < 300, status: answer.status, statusText: '',
              url: answer.url, redirected: answer.url !== url, headers: new Headers(answer.headers),
              get bodyUsed() { return used; },
              text: read,
              json: () => read().then(parse),
            }));
          }).catch(fail);
        });
      }
    """#
}
