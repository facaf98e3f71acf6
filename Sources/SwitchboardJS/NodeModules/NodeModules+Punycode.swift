extension NodeModules {
    /// `switchboard:punycode`: domain names to ASCII (IDNA), for `url`'s host names.
    static let punycode = #"""
    'use strict';
    // RFC 3492's parameters for IDNA.
    const base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128;

    function adapt(delta, points, first) {
      let scaled = first ? Math.floor(delta / damp) : delta >> 1;
      scaled += Math.floor(scaled / points);
      let k = 0;
      while (scaled > ((base - tMin) * tMax) >> 1) {
        scaled = Math.floor(scaled / (base - tMin));
        k += base;
      }
      return k + Math.floor(((base - tMin + 1) * scaled) / (scaled + skew));
    }

    // 0..25 are a..z, 26..35 are 0..9.
    function digit(value) {
      return String.fromCharCode(value < 26 ? value + 97 : value + 22);
    }

    function encodeLabel(label) {
      const points = Array.from(label, (character) => character.codePointAt(0));
      let output = points.filter((point) => point < 0x80).map((point) => String.fromCharCode(point)).join('');
      const basic = output.length;
      let handled = basic;
      if (basic > 0) output += '-';
      let n = initialN, delta = 0, bias = initialBias;
      while (handled < points.length) {
        const next = Math.min(...points.filter((point) => point >= n));
        delta += (next - n) * (handled + 1);
        n = next;
        for (const point of points) {
          if (point < n) delta++;
          if (point !== n) continue;
          let q = delta;
          for (let k = base; ; k += base) {
            const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
            if (q < t) break;
            output += digit(t + ((q - t) % (base - t)));
            q = Math.floor((q - t) / (base - t));
          }
          output += digit(q);
          bias = adapt(delta, handled + 1, handled === basic);
          delta = 0;
          handled++;
        }
        delta++;
        n++;
      }
      return output;
    }

    // Labels with characters past ASCII, case-folded and normalized as UTS 46 roughly does,
    // become xn-- labels; the ideographic full stops separate labels as '.' does.
    function toASCII(domain) {
      return domain.replace(/[\u3002\uff0e\uff61]/g, '.').split('.').map((label) => {
        if (!/[^\x00-\x7f]/.test(label)) return label;
        return 'xn--' + encodeLabel(label.normalize('NFKC').toLowerCase());
      }).join('.');
    }

    module.exports = { toASCII };
    """#
}
