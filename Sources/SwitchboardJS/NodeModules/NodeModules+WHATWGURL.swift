extension NodeModules {
    /// `switchboard:whatwg-url`: the `URL` and `URLSearchParams` classes that `url` exports
    /// (JavaScriptCore has neither without a browser around it), over `switchboard:url-parser`.
    static let whatwgURL = #"""
    'use strict';
    const {
      defaultPorts, isSpecial, parseURL, parsePort, parsePath, setHost, serialize, serializeOrigin, pathText,
      encodeUserinfo, encodeQuery, encodeSpecialQuery, encodeFragment, parseForm, encodeForm,
    } = require('switchboard:url-parser');
    const { nodeError, checkFunction } = require('switchboard:errors');

    function invalidURL(input) {
      const error = nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
      error.input = input;
      return error;
    }

    // State kept out of sight of Object.keys and JSON: a URL's record and its params, a
    // URLSearchParams' list and the URL it belongs to.
    const records = new WeakMap();
    const paramsOf = new WeakMap();
    const lists = new WeakMap();
    const owners = new WeakMap();
    const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

    function toUSVString(value) {
      return String(value).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
    }

    class URLSearchParams {
      constructor(init = '') {
        let list = [];
        if (init instanceof URLSearchParams) {
          list = lists.get(init).map((pair) => pair.slice());
        } else if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
          if (typeof init[Symbol.iterator] === 'function') {
            for (const pair of init) {
              const entry = Array.from(pair);
              if (entry.length !== 2) throw nodeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
              list.push([toUSVString(entry[0]), toUSVString(entry[1])]);
            }
          } else {
            for (const key of Object.keys(init)) list.push([toUSVString(key), toUSVString(init[key])]);
          }
        } else {
          const text = toUSVString(init);
          list = parseForm(text.startsWith('?') ? text.slice(1) : text);
        }
        lists.set(this, list);
      }

      get size() { return lists.get(this).length; }

      append(name, value) {
        lists.get(this).push([toUSVString(name), toUSVString(value)]);
        update(this);
      }

      delete(name, value) {
        const key = toUSVString(name);
        const match = value === undefined ? (pair) => pair[0] === key : (pair) => pair[0] === key && pair[1] === toUSVString(value);
        lists.set(this, lists.get(this).filter((pair) => !match(pair)));
        update(this);
      }

      get(name) {
        const key = toUSVString(name);
        const pair = lists.get(this).find((entry) => entry[0] === key);
        return pair === undefined ? null : pair[1];
      }

      getAll(name) {
        const key = toUSVString(name);
        return lists.get(this).filter((pair) => pair[0] === key).map((pair) => pair[1]);
      }

      has(name, value) {
        const key = toUSVString(name);
        return lists.get(this).some((pair) => pair[0] === key && (value === undefined || pair[1] === toUSVString(value)));
      }

      // Replaces the first pair of that name and drops the others.
      set(name, value) {
        const key = toUSVString(name);
        const list = lists.get(this);
        const first = list.findIndex((pair) => pair[0] === key);
        if (first < 0) list.push([key, toUSVString(value)]);
        else {
          list[first][1] = toUSVString(value);
          lists.set(this, list.filter((pair, i) => i <= first || pair[0] !== key));
        }
        update(this);
      }

      // Stable, by UTF-16 code units of the names.
      sort() {
        lists.get(this).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        update(this);
      }

      forEach(callback, thisArg) {
        checkFunction(callback, 'callback');
        for (const [name, value] of lists.get(this).slice()) callback.call(thisArg, value, name, this);
      }

      keys() { return lists.get(this).map((pair) => pair[0])[Symbol.iterator](); }
      values() { return lists.get(this).map((pair) => pair[1])[Symbol.iterator](); }
      entries() { return lists.get(this).map((pair) => pair.slice())[Symbol.iterator](); }
      [Symbol.iterator]() { return this.entries(); }

      toString() {
        return lists.get(this).map(([name, value]) => encodeForm(name) + '=' + encodeForm(value)).join('&');
      }

      [inspectSymbol](depth, options, inspect) {
        const shown = lists.get(this).map(([name, value]) => inspect(name) + ' => ' + inspect(value));
        return 'URLSearchParams {' + (shown.length > 0 ? ' ' + shown.join(', ') + ' ' : '') + '}';
      }
    }
    Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true });

    // A URL's params write their changes through to its query.
    function update(params) {
      const url = owners.get(params);
      if (url === undefined) return;
      const text = params.toString();
      records.get(url).query = text === '' ? null : text;
    }

    class URL {
      constructor(input, base) {
        const text = toUSVString(input);
        let baseRecord = null;
        if (base !== undefined) {
          baseRecord = base instanceof URL ? records.get(base) : parseURL(toUSVString(base), null);
          if (baseRecord === null) throw invalidURL(String(base));
        }
        const record = parseURL(text, baseRecord);
        if (record === null) throw invalidURL(text);
        records.set(this, record);
        const params = new URLSearchParams();
        lists.set(params, parseForm(record.query || ''));
        owners.set(params, this);
        paramsOf.set(this, params);
      }

      static canParse(input, base) {
        try { new URL(input, base); return true; } catch (e) { return false; }
      }

      get href() { return serialize(records.get(this)); }
      set href(value) {
        const record = parseURL(toUSVString(value), null);
        if (record === null) throw invalidURL(String(value));
        records.set(this, record);
        lists.set(paramsOf.get(this), parseForm(record.query || ''));
      }

      get origin() {
        const url = records.get(this);
        if (url.scheme === 'blob' && typeof url.path === 'string') {
          const inner = parseURL(url.path, null);
          return inner !== null && (inner.scheme === 'http' || inner.scheme === 'https') ? serializeOrigin(inner) : 'null';
        }
        return isSpecial(url.scheme) && url.scheme !== 'file' ? serializeOrigin(url) : 'null';
      }

      get protocol() { return records.get(this).scheme + ':'; }
      set protocol(value) {
        const url = records.get(this);
        const match = /^([A-Za-z][A-Za-z0-9+.-]*)(:|$)/.exec(toUSVString(value));
        if (match === null) return;
        const scheme = match[1].toLowerCase();
        // Special and other schemes do not change into one another, as the standard says.
        if (isSpecial(scheme) !== isSpecial(url.scheme)) return;
        if (scheme === 'file' && (url.username !== '' || url.password !== '' || url.port !== '')) return;
        if (url.scheme === 'file' && url.host === '') return;
        url.scheme = scheme;
        if (defaultPorts.get(scheme) === url.port) url.port = '';
      }

      get username() { return records.get(this).username; }
      set username(value) {
        const url = records.get(this);
        if (url.host === null || url.host === '' || url.scheme === 'file') return;
        url.username = encodeUserinfo(toUSVString(value));
      }

      get password() { return records.get(this).password; }
      set password(value) {
        const url = records.get(this);
        if (url.host === null || url.host === '' || url.scheme === 'file') return;
        url.password = encodeUserinfo(toUSVString(value));
      }

      get host() {
        const url = records.get(this);
        if (url.host === null) return '';
        return url.port === '' ? url.host : url.host + ':' + url.port;
      }
      set host(value) { setHost(records.get(this), toUSVString(value), true); }

      get hostname() { return records.get(this).host || ''; }
      set hostname(value) { setHost(records.get(this), toUSVString(value), false); }

      get port() { return records.get(this).port; }
      set port(value) {
        const url = records.get(this);
        if (url.host === null || url.host === '' || url.scheme === 'file') return;
        const text = toUSVString(value);
        if (text === '') { url.port = ''; return; }
        const port = parsePort(/^[0-9]*/.exec(text)[0], url.scheme);
        if (port !== null && /^[0-9]/.test(text)) url.port = port;
      }

      get pathname() { return pathText(records.get(this)); }
      set pathname(value) {
        const url = records.get(this);
        if (typeof url.path === 'string') return;
        url.path = [];
        const text = toUSVString(value);
        parsePath(url, isSpecial(url.scheme) && !/^[/\\]/.test(text) ? '/' + text : text);
        if (isSpecial(url.scheme) && url.path.length === 0) url.path.push('');
      }

      get search() {
        const query = records.get(this).query;
        return query === null || query === '' ? '' : '?' + query;
      }
      set search(value) {
        const url = records.get(this);
        const text = toUSVString(value);
        const query = text.startsWith('?') ? text.slice(1) : text;
        url.query = text === '' ? null : (isSpecial(url.scheme) ? encodeSpecialQuery : encodeQuery)(query);
        lists.set(paramsOf.get(this), parseForm(query));
      }

      get searchParams() { return paramsOf.get(this); }

      get hash() {
        const fragment = records.get(this).fragment;
        return fragment === null || fragment === '' ? '' : '#' + fragment;
      }
      set hash(value) {
        const text = toUSVString(value);
        records.get(this).fragment = text === '' ? null : encodeFragment(text.startsWith('#') ? text.slice(1) : text);
      }

      toString() { return this.href; }
      toJSON() { return this.href; }

      [inspectSymbol](depth, options, inspect) {
        const shown = {};
        for (const key of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash']) {
          shown[key] = this[key];
        }
        return 'URL ' + inspect(shown, options);
      }
    }
    Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });

    module.exports = { URL, URLSearchParams };
    """#
}
