extension NodeModules {
    /// `path`: Node's POSIX path functions; the working directory is `/`.
    static let path = #"""
    'use strict';
    const { invalidArgType, checkString } = require('switchboard:errors');

    // The segments of a path with '.' and '..' worked out; a relative path keeps the '..'
    // that climb above its start, an absolute one drops them at the root.
    function normalizeSegments(path, absolute) {
      const segments = [];
      for (const segment of path.split('/')) {
        if (segment === '' || segment === '.') continue;
        if (segment !== '..') segments.push(segment);
        else if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
        else if (!absolute) segments.push('..');
      }
      return segments.join('/');
    }

    function normalize(path) {
      checkString(path, 'path');
      if (path === '') return '.';
      const absolute = path.startsWith('/');
      let result = normalizeSegments(path, absolute);
      if (result === '' && !absolute) result = '.';
      if (result !== '' && path.endsWith('/')) result += '/';
      return absolute ? '/' + result : result;
    }

    function join(...paths) {
      paths.forEach((path, i) => checkString(path, 'paths[' + i + ']'));
      const joined = paths.filter((path) => path.length > 0).join('/');
      return joined === '' ? '.' : normalize(joined);
    }

    // From the last argument back to the first absolute one; the working directory is '/'.
    function resolve(...paths) {
      let resolved = '';
      for (let i = paths.length - 1; i >= -1 && !resolved.startsWith('/'); i--) {
        const path = i >= 0 ? paths[i] : '/';
        checkString(path, 'paths[' + i + ']');
        if (path.length > 0) resolved = path + '/' + resolved;
      }
      return '/' + normalizeSegments(resolved, true);
    }

    function isAbsolute(path) {
      checkString(path, 'path');
      return path.startsWith('/');
    }

    // Where the last segment starts and ends, trailing slashes left out.
    function lastSegment(path) {
      let end = path.length;
      while (end > 0 && path[end - 1] === '/') end--;
      return { start: path.lastIndexOf('/', end - 1) + 1, end };
    }

    function dirname(path) {
      checkString(path, 'path');
      if (path === '') return '.';
      const { start, end } = lastSegment(path);
      if (end === 0) return '/';
      if (start === 0) return '.';
      if (start === 1) return '/';
      // Node keeps a leading '//', and repeated slashes before the last segment.
      if (start === 2 && path.startsWith('//')) return '//';
      return path.slice(0, start - 1);
    }

    function basename(path, suffix) {
      checkString(path, 'path');
      if (suffix !== undefined) checkString(suffix, 'suffix');
      const { start, end } = lastSegment(path);
      const base = path.slice(start, end);
      if (suffix === undefined || suffix.length === 0 || suffix.length > path.length) return base;
      // Node's answers with a suffix, odd ones included: the path itself gives '', a path of
      // slashes comes back whole, and so does a last segment that is only the end of the
      // suffix, trailing slashes and all.
      if (suffix === path) return '';
      if (end === 0) return path;
      if (base.endsWith(suffix)) return base === suffix ? base : base.slice(0, base.length - suffix.length);
      return suffix.endsWith(base) ? path.slice(start) : base;
    }

    // From the last '.' of the last segment, unless that '.' starts it ('.profile') or the
    // segment is '..'.
    function extensionOf(base) {
      const dot = base.lastIndexOf('.');
      return dot <= 0 || base === '..' ? '' : base.slice(dot);
    }

    function extname(path) {
      checkString(path, 'path');
      const { start, end } = lastSegment(path);
      return extensionOf(path.slice(start, end));
    }

    function relative(from, to) {
      checkString(from, 'from');
      checkString(to, 'to');
      const fromSegments = resolve(from).split('/').filter(Boolean);
      const toSegments = resolve(to).split('/').filter(Boolean);
      let common = 0;
      while (common < fromSegments.length && common < toSegments.length && fromSegments[common] === toSegments[common]) common++;
      const up = fromSegments.slice(common).map(() => '..');
      return up.concat(toSegments.slice(common)).join('/');
    }

    function parse(path) {
      checkString(path, 'path');
      const root = path.startsWith('/') ? '/' : '';
      const { start, end } = lastSegment(path);
      const base = path.slice(start, end);
      // Node's parse, unlike extname, gives '/..' the extension '.'.
      const ext = start === 1 && base === '..' ? '.' : extensionOf(base);
      const dir = start > 1 ? path.slice(0, start - 1) : root;
      return { root, dir, base, ext, name: base.slice(0, base.length - ext.length) };
    }

    function format(pathObject) {
      if (pathObject === null || typeof pathObject !== 'object') throw invalidArgType('pathObject', 'of type object', pathObject);
      const dir = pathObject.dir || pathObject.root;
      const ext = pathObject.ext ? (pathObject.ext[0] === '.' ? '' : '.') + pathObject.ext : '';
      const base = pathObject.base || (pathObject.name || '') + ext;
      if (!dir) return base;
      return dir === pathObject.root ? dir + base : dir + '/' + base;
    }

    module.exports = {
      normalize, join, resolve, isAbsolute, dirname, basename, extname, relative, parse, format,
      toNamespacedPath: (path) => path,
      sep: '/',
      delimiter: ':',
    };
    module.exports.posix = module.exports;
    """#
}
