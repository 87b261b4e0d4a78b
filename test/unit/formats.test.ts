import { strict as assert } from 'node:assert';
import { fullFormats } from 'ajv-formats/dist/formats';
import fc from 'fast-check';
import { FORMAT_CHECKS } from '../../src/elicitation/formats';
import type { TextFormat } from '../../src/elicitation/model';

/** ajv-formats' verdict: the one the host's final ajv check reaches. */
function ajvSays(format: TextFormat, text: string): boolean {
  const def = fullFormats[format] as unknown;
  const validate = typeof def === 'object' && def !== null && 'validate' in def ? (def as { validate: unknown }).validate : def;
  return validate instanceof RegExp ? validate.test(text) : (validate as (t: string) => boolean)(text);
}

const samples: Record<TextFormat, string[]> = {
  date: ['2026-11-22', '2024-02-29', '2023-02-29', '2026-13-01', '2026-00-10', '2026-1-1', '0000-01-01', '2026-12-31x'],
  'date-time': [
    '2026-11-22T14:30:00Z', '2026-11-22t14:30:00z', '2026-11-22 14:30:00+02:00', '2026-11-22T14:30:00', '2026-11-22T24:00:00Z',
    '2016-12-31T23:59:60Z', '2016-12-31T22:59:60-01:00', '2026-11-22T14:30:00.123456+0530', '2026-11-22T14:30:00+24:00', '2026-11-22TT14:30:00Z',
  ],
  uri: [
    'https://example.com/a?b=c#d', 'http://[::1]:8080/', 'http://[v1.x]/', 'mailto:someone@example.com', 'urn:isbn:0451450523', 'http://',
    'http:/x', 'http:', 'example.com', 'http://exa mple.com', 'http://a%20b/', 'http://a%2/', 'ftp://user:pw@host:21/path;x', 'file:///etc/hosts',
    'http://192.168.0.1/', 'http://[2001:db8::7]/c=GB?objectClass?one', 'tel:+1-816-555-1212', 'a:b', '1a://x',
  ],
  email: ['a@example.com', 'a.b+c@sub.example.org', 'a..b@example.com', 'a@-example.com', 'a@example', '@example.com', 'a@exa_mple.com'],
};

describe('formats agree with ajv-formats', () => {
  for (const format of Object.keys(samples) as TextFormat[]) {
    it(`${format}: known cases`, () => {
      for (const text of samples[format]) {
        assert.equal(FORMAT_CHECKS[format](text), ajvSays(format, text), `${format} ${JSON.stringify(text)}`);
      }
    });
  }

  const piece = (chars: string): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...chars.split('')), maxLength: 6 });
  const generators: Record<TextFormat, fc.Arbitrary<string>> = {
    date: fc.tuple(piece('0123456789'), piece('0123456789'), piece('0123456789')).map(([y, m, d]) => `${y}-${m}-${d}`),
    'date-time': fc
      .tuple(fc.date({ noInvalidDate: true }), fc.constantFrom('T', 't', ' ', 'TT'), piece('0123456789:.+-Zz'))
      .map(([d, sep, tail]) => `${d.toISOString().slice(0, 10)}${sep}${d.toISOString().slice(11, 19)}${tail}`),
    uri: fc
      .tuple(piece('abhtp1+.-'), fc.constantFrom(':', '://', ':/', ''), piece("abc%20-._~!$&'()*+,;=:@[]/?#v1 "), piece('/?#%ab'))
      .map(([a, b, c, d]) => `${a}${b}${c}${d}`),
    email: fc.tuple(piece('ab.+-_'), fc.constantFrom('@', ''), piece('ab.-_0'), fc.constantFrom('.com', '', '.c')).map((p) => p.join('')),
  };
  for (const format of Object.keys(generators) as TextFormat[]) {
    it(`${format}: random strings get the same verdict`, () => {
      fc.assert(
        fc.property(fc.oneof(generators[format], fc.string({ maxLength: 20 })), (text) => FORMAT_CHECKS[format](text) === ajvSays(format, text)),
        { numRuns: 5000 },
      );
    });
  }
});
