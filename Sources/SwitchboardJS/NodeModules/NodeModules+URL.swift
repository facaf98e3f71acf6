extension NodeModules {
    /// `url`: the legacy `parse`, `format` and `resolve`, with `URL` and `URLSearchParams`.
    static let url = #"""
    'use strict';
    const querystring = require('querystring');
    const { toASCII } = require('switchboard:punycode');
    const { URL, URLSearchParams } = require('switchboard:whatwg-url');
    const { nodeError, invalidArgType, checkString } = require('switchboard:errors');

    const slashedProtocols = new Set(['http:', 'https:', 'ftp:', 'gopher:', 'file:', 'ws:', 'wss:']);
    const hostlessProtocols = new Set(['javascript:']);
    // Characters that url.parse escapes wherever they appear after the host.
    const autoEscaped = /[\t\n\r "'<>\\^`{|}]/g;
    const escapeCharacter = (character) => '%' + character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');

    // The legacy URL object: every field null until parse() fills it, in Node's order.
    function Url() {
      this.protocol = null;
      this.slashes = null;
      this.auth = null;
      this.host = null;
      this.port = null;
      this.hostname = null;
      this.hash = null;
      this.search = null;
      this.query = null;
      this.pathname = null;
      this.path = null;
      this.href = null;
    }

    // Spaces and control characters, the no-break space and the BOM around a URL are dropped.
    const edgeSpace = /^[\u0000-\u0020\u00a0\ufeff]+|[\u0000-\u0020\u00a0\ufeff]+$/g;

    Url.prototype.parse = function parse(url, parseQueryString, slashesDenoteHost) {
      checkString(url, 'url');
      let rest = url.replace(edgeSpace, '');
      // Backslashes before the query or fragment are slashes, as browsers read them.
      const split = rest.search(/[?#]/);
      rest = split < 0 ? rest.replace(/\\/g, '/') : rest.slice(0, split).replace(/\\/g, '/') + rest.slice(split);

      // A bare path and query, the common case, is taken as it is (nothing escaped, as in Node);
      // an '@' before the query may be //user@host.
      if (!slashesDenoteHost && !rest.includes('#') && !(split < 0 ? rest : rest.slice(0, split)).includes('@')) {
        const simple = /^(\/\/?(?!\/)[^?\s]*)(\?[^\s]*)?$/.exec(rest);
        if (simple !== null) {
          this.path = rest;
          this.href = rest;
          this.pathname = simple[1];
          if (simple[2]) {
            this.search = simple[2];
            this.query = parseQueryString ? querystring.parse(this.search.slice(1)) : this.search.slice(1);
          } else if (parseQueryString) {
            this.search = null;
            this.query = Object.create(null);
          }
          return this;
        }
      }

      const protocolMatch = /^[a-z0-9.+-]+:/i.exec(rest);
      const protocol = protocolMatch === null ? null : protocolMatch[0];
      const lowerProtocol = protocol === null ? null : protocol.toLowerCase();
      if (protocol !== null) {
        this.protocol = lowerProtocol;
        rest = rest.slice(protocol.length);
      }

      // '//' brings a host after a protocol, with slashesDenoteHost, or before user@host.
      let slashes = false;
      if (slashesDenoteHost || protocol !== null || /^\/\/[^@/]+@[^@/]+/.test(rest)) {
        slashes = rest.startsWith('//');
        if (slashes && !hostlessProtocols.has(lowerProtocol)) {
          rest = rest.slice(2);
          this.slashes = true;
        }
      }

      // Node looks the protocol up as written here, so 'HTTP:host/path' has a host and
      // 'http:path' has none.
      if (!hostlessProtocols.has(lowerProtocol) && (slashes || (protocol !== null && !slashedProtocols.has(protocol)))) {
        rest = this._parseHost(rest);
      }

      if (!hostlessProtocols.has(lowerProtocol)) rest = rest.replace(autoEscaped, escapeCharacter);

      const hash = rest.indexOf('#');
      if (hash >= 0) {
        this.hash = rest.slice(hash);
        rest = rest.slice(0, hash);
      }
      const question = rest.indexOf('?');
      if (question >= 0) {
        this.search = rest.slice(question);
        this.query = rest.slice(question + 1);
        if (parseQueryString) this.query = querystring.parse(this.query);
        rest = rest.slice(0, question);
      } else if (parseQueryString) {
        this.search = null;
        this.query = Object.create(null);
      }
      if (rest.length > 0) this.pathname = rest;
      else if (slashedProtocols.has(lowerProtocol) && this.hostname) this.pathname = '/';
      if (this.pathname || this.search) this.path = (this.pathname || '') + (this.search || '');
      this.href = this.format();
      return this;
    };

    // Takes auth, host, port and hostname off the front of `rest`; returns what follows.
    Url.prototype._parseHost = function (rest) {
      // The host ends at the first '/', '?' or '#'; the last '@' before that ends the auth.
      // Characters never found in a host name end it early, and what follows is path.
      let hostEnd = -1, at = -1, nonHost = -1;
      for (let i = 0; i < rest.length && hostEnd < 0; i++) {
        const character = rest[i];
        if ('\t\n\r "%\';<>\\^`{|}'.includes(character)) {
          if (nonHost < 0) nonHost = i;
        } else if (character === '/' || character === '?' || character === '#') {
          if (nonHost < 0) nonHost = i;
          hostEnd = i;
        } else if (character === '@') {
          at = i;
          nonHost = -1;
        }
      }
      let start = 0;
      if (at >= 0) {
        this.auth = decodeURIComponent(rest.slice(0, at));
        start = at + 1;
      }
      let host = nonHost < 0 ? rest.slice(start) : rest.slice(start, nonHost);
      let after = nonHost < 0 ? '' : rest.slice(nonHost);
      const port = /:[0-9]*$/.exec(host);
      if (port !== null) {
        if (port[0] !== ':') this.port = port[0].slice(1);
        host = host.slice(0, -port[0].length);
      }
      let hostname = host;
      const ipv6 = hostname.startsWith('[') && hostname.endsWith(']');
      if (!ipv6) {
        // A ':' left over (a port that is not a number) or a path character ends the name.
        const bad = hostname.search(/[/\\?#:]/);
        if (bad >= 0) {
          after = '/' + hostname.slice(bad) + after;
          hostname = hostname.slice(0, bad);
        }
      }
      hostname = hostname.length > 255 ? '' : hostname.toLowerCase();
      if (hostname !== '' && !ipv6) hostname = toASCII(hostname);
      if (hostname !== '' && /[\u0000\t\n\r #%/<>?@[\\\]^|]/.test(ipv6 ? hostname.slice(1, -1) : hostname)) {
        throw nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
      }
      this.hostname = hostname;
      this.host = hostname + (this.port ? ':' + this.port : '');
      if (ipv6) {
        this.hostname = hostname.slice(1, -1);
        if (!after.startsWith('/')) after = '/' + after;
      }
      return after;
    };

    Url.prototype.format = function format() {
      let auth = this.auth || '';
      if (auth) auth = encodeURIComponent(auth).replace(/%3A/gi, ':') + '@';
      let protocol = this.protocol || '';
      let pathname = this.pathname || '';
      let hash = this.hash || '';
      let host = '';
      if (this.host) {
        host = auth + this.host;
      } else if (this.hostname) {
        const bracketed = this.hostname.includes(':') && !(this.hostname.startsWith('[') && this.hostname.endsWith(']'));
        host = auth + (bracketed ? '[' + this.hostname + ']' : this.hostname) + (this.port ? ':' + this.port : '');
      }
      const query = this.query !== null && typeof this.query === 'object' ? querystring.stringify(this.query) : '';
      let search = this.search || (query && '?' + query) || '';
      if (protocol && !protocol.endsWith(':')) protocol += ':';
      pathname = pathname.replace(/[#?]/g, (character) => (character === '#' ? '%23' : '%3F'));
      // Only the protocols that have them get '//' when the object did not say.
      if (this.slashes || slashedProtocols.has(protocol)) {
        if (this.slashes || host) {
          if (pathname && !pathname.startsWith('/')) pathname = '/' + pathname;
          host = '//' + host;
        } else if (protocol.startsWith('file')) {
          host = '//';
        }
      }
      search = search.replace(/#/g, '%23');
      if (hash && !hash.startsWith('#')) hash = '#' + hash;
      if (search && !search.startsWith('?')) search = '?' + search;
      return protocol + host + pathname + search + hash;
    };

    // '.' and '..' worked out; a relative path keeps the '..' that climb above its start.
    function removeDotSegments(path) {
      const absolute = path.startsWith('/');
      const segments = path.split('/');
      if (absolute) segments.shift();
      const output = [];
      segments.forEach((segment, i) => {
        const last = i === segments.length - 1;
        if (segment === '..') {
          if (output.length > 0 && output[output.length - 1] !== '..') output.pop();
          else if (!absolute) output.push('..');
          if (last) output.push('');
        } else if (segment === '.') {
          if (last) output.push('');
        } else {
          output.push(segment);
        }
      });
      return (absolute ? '/' : '') + output.join('/');
    }

    function copyOf(url) {
      const copy = new Url();
      for (const key of Object.keys(url)) copy[key] = url[key];
      return copy;
    }

    // RFC 3986's resolution over legacy URL objects, with the cases Node treats its own way.
    Url.prototype.resolveObject = function resolveObject(relative) {
      const reference = typeof relative === 'string' ? urlParse(relative, false, true) : relative;
      const result = copyOf(this);
      result.hash = reference.hash;
      const done = () => {
        result.path = result.pathname || result.search ? (result.pathname || '') + (result.search || '') : null;
        result.href = result.format();
        return result;
      };
      if (reference.href === '') return done();
      // '//host/path': all but the protocol from the reference, as it is.
      if (reference.slashes && !reference.protocol) {
        for (const key of Object.keys(reference)) if (key !== 'protocol') result[key] = reference[key];
        if (slashedProtocols.has(result.protocol) && result.hostname && !result.pathname) result.pathname = '/';
        return done();
      }
      if (reference.protocol && reference.protocol !== result.protocol) {
        const other = copyOf(reference);
        // 'https:host/path' against another protocol: the first segment is the host.
        if (slashedProtocols.has(other.protocol) && other.protocol !== 'file:' && !other.host) {
          const segments = (other.pathname || '').split('/').filter((segment) => segment !== '');
          other.host = other.hostname = segments.shift() || '';
          other.pathname = '/' + segments.join('/');
        }
        other.path = other.pathname || other.search ? (other.pathname || '') + (other.search || '') : null;
        other.href = other.format();
        return other;
      }
      if (reference.host) {
        for (const key of ['auth', 'host', 'port', 'hostname']) result[key] = reference[key];
        result.pathname = reference.pathname ? removeDotSegments(reference.pathname) : '/';
        result.search = reference.search;
        result.query = reference.query;
        return done();
      }
      if (reference.pathname) {
        let merged = reference.pathname;
        if (!merged.startsWith('/')) {
          const base = result.pathname || (result.host ? '/' : '');
          merged = base.slice(0, base.lastIndexOf('/') + 1) + merged;
        }
        result.pathname = removeDotSegments(merged);
        result.search = reference.search;
        result.query = reference.query;
      } else if (reference.search !== null) {
        result.search = reference.search;
        result.query = reference.query;
      }
      return done();
    };

    Url.prototype.resolve = function resolve(relative) {
      return this.resolveObject(urlParse(relative, false, true)).format();
    };

    function urlParse(url, parseQueryString, slashesDenoteHost) {
      if (url instanceof Url) return url;
      return new Url().parse(url, parseQueryString, slashesDenoteHost);
    }

    // A WHATWG URL with the parts that options leave out taken off.
    function formatURL(url, options) {
      const { auth = true, fragment = true, search = true } = options || {};
      const copy = new URL(url.href);
      if (!auth) { copy.username = ''; copy.password = ''; }
      if (!fragment) copy.hash = '';
      if (!search) copy.search = '';
      return copy.href;
    }

    function urlFormat(object, options) {
      if (typeof object === 'string') return urlParse(object).format();
      if (object === null || typeof object !== 'object') {
        throw invalidArgType('urlObject', 'one of type object or string', object);
      }
      if (object instanceof URL) return formatURL(object, options);
      return Url.prototype.format.call(object);
    }

    function urlResolve(source, relative) {
      return urlParse(source, false, true).resolve(relative);
    }

    function urlResolveObject(source, relative) {
      if (!source) return relative;
      return urlParse(source, false, true).resolveObject(relative);
    }

    // file: URLs and paths, as ES modules turn import.meta.url into a path. POSIX paths, the
    // project's folder being / (process.cwd()).
    function fileURLToPath(given) {
      const url = typeof given === 'string' ? new URL(given) : given;
      if (!(url instanceof URL)) throw invalidArgType('path', 'of type string or an instance of URL', given);
      if (url.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
      if (url.hostname !== '' && url.hostname !== 'localhost') {
        throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
      }
      if (/%2f/i.test(url.pathname)) {
        throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
      }
      return decodeURIComponent(url.pathname);
    }
    // What a path may not hold as it is in a file: URL's path.
    const pathEscaped = /[\u0000-\u0020"#%<>?\\`{}\u007f]/g;
    function pathToFileURL(filePath) {
      checkString(filePath, 'path');
      const resolved = require('path').resolve(filePath) + (filePath.endsWith('/') && filePath !== '/' ? '/' : '');
      return new URL('file://' + resolved.replace(pathEscaped, escapeCharacter));
    }

    module.exports = {
      Url, parse: urlParse, format: urlFormat, resolve: urlResolve, resolveObject: urlResolveObject,
      URL, URLSearchParams, fileURLToPath, pathToFileURL,
    };
    """#
}
