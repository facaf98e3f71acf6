extension NodeModules {
    /// `switchboard:url-parser`: the WHATWG URL parser and serializer behind `URL`, and the
    /// form encoding behind `URLSearchParams`.
    static let urlParser = #"""
    'use strict';
    // The WHATWG URL standard's parser, shortened: http(s), ws(s), ftp and file URLs, other
    // schemes with an authority, a path or an opaque path, and relative references against a
    // base. Not done: Windows drive letters in file URLs, and the full UTS 46 mapping of
    // international domain names (labels are case-folded, NFKC-normalized and punycoded).
    const codecs = require('switchboard:codecs');
    const { toASCII } = require('switchboard:punycode');

    const defaultPorts = new Map([['http', '80'], ['https', '443'], ['ws', '80'], ['wss', '443'], ['ftp', '21'], ['file', '']]);
    const isSpecial = (scheme) => defaultPorts.has(scheme);

    // Percent-encodes, as UTF-8, C0 controls, code points past '~' and those in `extra` (the
    // standard's encode sets); a lone surrogate is encoded as U+FFFD.
    function encoder(extra) {
      return function (text) {
        let result = '';
        for (const character of text) {
          const code = character.codePointAt(0);
          if (code >= 0x20 && code < 0x7f && !extra.includes(character)) { result += character; continue; }
          for (const byte of codecs.utf8.bytes(character)) result += '%' + (byte < 16 ? '0' : '') + byte.toString(16).toUpperCase();
        }
        return result;
      };
    }
    const encodeOpaque = encoder('');
    const encodeFragment = encoder(' "<>`');
    const encodeQuery = encoder(' "#<>');
    const encodeSpecialQuery = encoder(' "#<>\'');
    const encodePath = encoder(' "#<>?`{}');
    const encodeUserinfo = encoder(' "#<>?`{}/:;=@[\\]^|');

    // %XX to bytes, what lies between them to UTF-8, then the whole back from UTF-8.
    function percentDecode(text) {
      const bytes = [];
      let i = 0;
      while (i < text.length) {
        if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
          bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
          i += 3;
          continue;
        }
        const next = text.indexOf('%', i + 1);
        const end = next < 0 ? text.length : next;
        for (const byte of codecs.utf8.bytes(text.slice(i, end))) bytes.push(byte);
        i = end;
      }
      const array = Uint8Array.from(bytes);
      return codecs.utf8.text(array, 0, array.length);
    }

    // IPv4 as the standard reads it: up to four parts in decimal, octal (0...) or hex (0x...),
    // the last filling the bytes left.
    function ipv4Number(part) {
      if (/^0[xX][0-9a-fA-F]*$/.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
      if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
      if (/^(0|[1-9][0-9]*)$/.test(part)) return parseInt(part, 10);
      return NaN;
    }

    function endsInNumber(host) {
      const parts = host.split('.');
      if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
      const last = parts[parts.length - 1];
      return /^[0-9]+$/.test(last) || /^0[xX][0-9a-fA-F]*$/.test(last);
    }

    function parseIPv4(host) {
      const parts = host.split('.');
      if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
      if (parts.length > 4) return null;
      const numbers = parts.map(ipv4Number);
      if (numbers.some(Number.isNaN)) return null;
      const last = numbers.pop();
      if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
      let address = numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
      const bytes = [];
      for (let i = 0; i < 4; i++) { bytes.unshift(address % 256); address = Math.floor(address / 256); }
      return bytes.join('.');
    }

    function ipv6Pieces(text) {
      const halves = text.split('::');
      if (halves.length > 2) return null;
      const read = (part) => {
        if (part === '') return [];
        const pieces = [];
        const groups = part.split(':');
        for (let i = 0; i < groups.length; i++) {
          if (i === groups.length - 1 && groups[i].includes('.')) {
            const v4 = groups[i].split('.');
            if (v4.length !== 4 || !v4.every((n) => /^(0|[1-9][0-9]{0,2})$/.test(n) && Number(n) < 256)) return null;
            pieces.push(Number(v4[0]) * 256 + Number(v4[1]), Number(v4[2]) * 256 + Number(v4[3]));
          } else if (/^[0-9a-fA-F]{1,4}$/.test(groups[i])) {
            pieces.push(parseInt(groups[i], 16));
          } else {
            return null;
          }
        }
        return pieces;
      };
      const head = read(halves[0]);
      const tail = halves.length === 2 ? read(halves[1]) : [];
      if (head === null || tail === null) return null;
      if (halves.length === 1) return head.length === 8 ? head : null;
      const missing = 8 - head.length - tail.length;
      return missing < 1 ? null : head.concat(new Array(missing).fill(0), tail);
    }

    // The longest run of two or more zero pieces becomes '::'.
    function serializeIPv6(pieces) {
      let runStart = -1, runLength = 1;
      for (let i = 0; i < 8;) {
        let end = i;
        while (end < 8 && pieces[end] === 0) end++;
        if (end - i > runLength) { runStart = i; runLength = end - i; }
        i = end > i ? end : i + 1;
      }
      let text = '';
      for (let i = 0; i < 8; i++) {
        if (i === runStart) {
          text += i === 0 ? '::' : ':';
          i += runLength - 1;
        } else {
          text += pieces[i].toString(16) + (i < 7 ? ':' : '');
        }
      }
      return '[' + text + ']';
    }

    const forbiddenHost = /[\u0000\t\n\r #/:<>?@[\\\]^|]/;
    const forbiddenDomain = /[\u0000-\u001f #%/:<>?@[\\\]^|\u007f]/;

    // The host as the URL keeps it, or null if it is not one.
    function parseHost(text, special) {
      if (text.startsWith('[')) {
        if (!text.endsWith(']')) return null;
        const pieces = ipv6Pieces(text.slice(1, -1));
        return pieces === null ? null : serializeIPv6(pieces);
      }
      if (!special) return forbiddenHost.test(text) ? null : encodeOpaque(text);
      const domain = toASCII(percentDecode(text)).toLowerCase();
      if (domain === '' || forbiddenDomain.test(domain)) return null;
      return endsInNumber(domain) ? parseIPv4(domain) : domain;
    }

    function parsePort(text, scheme) {
      if (text === '') return '';
      if (!/^[0-9]+$/.test(text) || Number(text) > 65535) return null;
      const port = String(Number(text));
      return defaultPorts.get(scheme) === port ? '' : port;
    }

    const isSingleDot = (segment) => segment === '.' || segment.toLowerCase() === '%2e';
    const isDoubleDot = (segment) => ['..', '.%2e', '%2e.', '%2e%2e'].includes(segment.toLowerCase());

    // Appends a path's segments to url.path, working out '.' and '..'.
    function parsePath(url, text) {
      const special = isSpecial(url.scheme);
      const segments = text.split(special ? /[/\\]/ : '/');
      if (text.startsWith('/') || (special && text.startsWith('\\'))) segments.shift();
      segments.forEach((segment, i) => {
        const last = i === segments.length - 1;
        if (isDoubleDot(segment)) {
          url.path.pop();
          if (last) url.path.push('');
        } else if (isSingleDot(segment)) {
          if (last) url.path.push('');
        } else {
          url.path.push(encodePath(segment));
        }
      });
    }

    // The query and fragment after a path: '?...' then '#...'.
    function parseTail(url, text) {
      const hash = text.indexOf('#');
      const beforeHash = hash < 0 ? text : text.slice(0, hash);
      if (hash >= 0) url.fragment = encodeFragment(text.slice(hash + 1));
      const question = beforeHash.indexOf('?');
      if (question >= 0) url.query = (isSpecial(url.scheme) ? encodeSpecialQuery : encodeQuery)(beforeHash.slice(question + 1));
      return question < 0 ? beforeHash : beforeHash.slice(0, question);
    }

    // //userinfo@host:port then the rest; false if the authority is not valid.
    function parseAuthority(url, text) {
      const special = isSpecial(url.scheme);
      const end = text.search(special ? /[/\\?#]/ : /[/?#]/);
      const authority = end < 0 ? text : text.slice(0, end);
      const rest = end < 0 ? '' : text.slice(end);
      const at = authority.lastIndexOf('@');
      let hostPort = authority;
      if (at >= 0) {
        const userinfo = authority.slice(0, at);
        const colon = userinfo.indexOf(':');
        url.username = encodeUserinfo(colon < 0 ? userinfo : userinfo.slice(0, colon));
        url.password = colon < 0 ? '' : encodeUserinfo(userinfo.slice(colon + 1));
        hostPort = authority.slice(at + 1);
        if (hostPort === '') return false;
      }
      const close = hostPort.startsWith('[') ? hostPort.indexOf(']') : -1;
      const colon = hostPort.indexOf(':', close < 0 ? 0 : close);
      const hostText = colon < 0 ? hostPort : hostPort.slice(0, colon);
      if (url.scheme === 'file') {
        if (colon >= 0) return false;
        const host = hostText === '' ? '' : parseHost(hostText, true);
        if (host === null) return false;
        url.host = host === 'localhost' ? '' : host;
      } else {
        if (hostText === '') {
          if (special || at >= 0 || colon >= 0) return false;
          url.host = '';
        } else {
          url.host = parseHost(hostText, special);
          if (url.host === null) return false;
        }
        const port = colon < 0 ? '' : parsePort(hostPort.slice(colon + 1), url.scheme);
        if (port === null) return false;
        url.port = port;
      }
      parsePath(url, parseTail(url, rest));
      if (special && url.path.length === 0) url.path.push('');
      return true;
    }

    function emptyRecord(scheme) {
      return { scheme, username: '', password: '', host: null, port: '', path: [], query: null, fragment: null };
    }

    function copyRecord(record) {
      return Object.assign({}, record, { path: Array.isArray(record.path) ? record.path.slice() : record.path });
    }

    // A reference relative to base (which has the same scheme, or the reference has none).
    function parseRelative(text, base) {
      const url = copyRecord(base);
      url.fragment = null;
      const special = isSpecial(base.scheme);
      const slash = (character) => character === '/' || (special && character === '\\');
      if (slash(text[0]) && slash(text[1])) {
        const fresh = emptyRecord(base.scheme);
        const authority = special && base.scheme !== 'file' ? text.replace(/^[/\\]+/, '') : text.slice(2);
        return parseAuthority(fresh, authority) ? fresh : null;
      }
      if (slash(text[0])) {
        url.path = [];
        url.query = null;
        parsePath(url, parseTail(url, text));
        return url;
      }
      if (text.startsWith('?')) {
        url.query = null;
        parseTail(url, text);
        return url;
      }
      if (text.startsWith('#') || text === '') {
        parseTail(url, text);
        return url;
      }
      url.query = null;
      url.path.pop();
      parsePath(url, parseTail(url, text));
      return url;
    }

    // A URL record, or null if `input` is not a URL (against `base`, a record, if given).
    function parseURL(input, base) {
      const text = input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
      const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text);
      if (schemeMatch === null) {
        if (base === null) return null;
        if (typeof base.path === 'string') {
          if (!text.startsWith('#')) return null;
          const url = copyRecord(base);
          url.fragment = encodeFragment(text.slice(1));
          return url;
        }
        return parseRelative(text, base);
      }
      const scheme = schemeMatch[1].toLowerCase();
      const rest = text.slice(schemeMatch[0].length);
      const url = emptyRecord(scheme);
      if (isSpecial(scheme)) {
        if (base !== null && base.scheme === scheme && !/^[/\\]{2}/.test(rest)) return parseRelative(rest, base);
        if (scheme === 'file' && !/^[/\\]{2}/.test(rest)) {
          url.host = '';
          parsePath(url, parseTail(url, rest));
          if (url.path.length === 0) url.path.push('');
          return url;
        }
        return parseAuthority(url, scheme === 'file' ? rest.slice(2) : rest.replace(/^[/\\]+/, '')) ? url : null;
      }
      if (rest.startsWith('//')) return parseAuthority(url, rest.slice(2)) ? url : null;
      if (rest.startsWith('/')) {
        parsePath(url, parseTail(url, rest));
        return url;
      }
      // An opaque path: mailto:, data:, javascript: and the like.
      url.path = encodeOpaque(parseTail(url, rest));
      return url;
    }

    function pathText(url) {
      return typeof url.path === 'string' ? url.path : url.path.map((segment) => '/' + segment).join('');
    }

    function serialize(url) {
      let text = url.scheme + ':';
      if (url.host !== null) {
        text += '//';
        if (url.username !== '' || url.password !== '') {
          text += url.username + (url.password !== '' ? ':' + url.password : '') + '@';
        }
        text += url.host + (url.port !== '' ? ':' + url.port : '');
      } else if (typeof url.path !== 'string' && url.path.length > 1 && url.path[0] === '') {
        text += '/.';
      }
      text += pathText(url);
      if (url.query !== null) text += '?' + url.query;
      if (url.fragment !== null) text += '#' + url.fragment;
      return text;
    }

    // application/x-www-form-urlencoded, as URLSearchParams reads and writes it.
    function parseForm(text) {
      const list = [];
      for (const pair of text.split('&')) {
        if (pair === '') continue;
        const at = pair.indexOf('=');
        const name = at < 0 ? pair : pair.slice(0, at);
        const value = at < 0 ? '' : pair.slice(at + 1);
        list.push([percentDecode(name.replace(/\+/g, ' ')), percentDecode(value.replace(/\+/g, ' '))]);
      }
      return list;
    }

    function encodeForm(text) {
      let result = '';
      for (const byte of codecs.utf8.bytes(text)) {
        const character = String.fromCharCode(byte);
        if (/[*\-._0-9A-Za-z]/.test(character)) result += character;
        else if (byte === 0x20) result += '+';
        else result += '%' + (byte < 16 ? '0' : '') + byte.toString(16).toUpperCase();
      }
      return result;
    }

    function serializeOrigin(url) {
      return url.scheme + '://' + url.host + (url.port !== '' ? ':' + url.port : '');
    }

    function setHost(url, text, withPort) {
      if (typeof url.path === 'string' || text === '') return;
      const end = text.search(/[/\\?#]/);
      const hostPort = end < 0 ? text : text.slice(0, end);
      const close = hostPort.startsWith('[') ? hostPort.indexOf(']') : -1;
      const colon = hostPort.indexOf(':', close < 0 ? 0 : close);
      const host = parseHost(colon < 0 ? hostPort : hostPort.slice(0, colon), isSpecial(url.scheme));
      if (host === null) return;
      url.host = url.scheme === 'file' && host === 'localhost' ? '' : host;
      if (withPort && colon >= 0 && url.scheme !== 'file') {
        const port = parsePort(/^[0-9]*/.exec(hostPort.slice(colon + 1))[0], url.scheme);
        if (port !== null) url.port = port;
      }
    }

    module.exports = {
      defaultPorts, isSpecial, parseURL, parsePort, parsePath, setHost, serialize, serializeOrigin, pathText,
      encodeUserinfo, encodeQuery, encodeSpecialQuery, encodeFragment, parseForm, encodeForm,
    };
    """#
}
