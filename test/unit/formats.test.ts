import { strict as assert } from 'node:assert';
import { fullFormats } from 'ajv-formats/dist/formats';
import { FORMAT_CHECKS } from '../../src/elicitation/formats';
import type { TextFormat } from '../../src/elicitation/model';
import { SchemaChecker } from '../../src/mcp/sdk/schema-check';

/** What each format accepts (true) and refuses (false), by the rules of RFC 3339, RFC 3986 and ajv's email. */
const cases: Record<TextFormat, Array<[string, boolean]>> = {
  date: [['2026-11-22', true], ['2024-02-29', true], ['2023-02-29', false], ['2026-13-01', false], ['2026-00-10', false], ['2026-1-1', false], ['2026-12-31x', false]],
  'date-time': [
    ['2026-11-22T14:30:00Z', true], ['2026-11-22t14:30:00z', true], ['2026-11-22 14:30:00+02:00', true], ['2026-11-22T14:30:00', false],
    ['2026-11-22T24:00:00Z', false], ['2016-12-31T23:59:60Z', true], ['2016-12-31T22:59:60-01:00', true], ['2026-11-22T14:30:00+24:00', false],
  ],
  uri: [
    ['https://example.com/a?b=c#d', true], ['http://[::1]:8080/', true], ['mailto:someone@example.com', true], ['urn:isbn:0451450523', true],
    ['example.com', false], ['http://exa mple.com', false], ['http://a%2/', false], ['1a://x', false],
  ],
  email: [['a@example.com', true], ['a.b+c@sub.example.org', true], ['a..b@example.com', false], ['a@-example.com', false], ['@example.com', false]],
};

describe('formats: ajv-formats\' own checks, in the page and on the host', () => {
  it('the page runs the very functions ajv runs', () => {
    for (const format of ['date', 'date-time'] as const) {
      assert.equal(FORMAT_CHECKS[format], (fullFormats[format] as { validate: unknown }).validate, format);
    }
    assert.equal(FORMAT_CHECKS.uri, fullFormats.uri);
  });

  const checker = new SchemaChecker();
  for (const format of Object.keys(cases) as TextFormat[]) {
    it(`${format}: known cases, and the final ajv check agrees`, () => {
      const schema = { type: 'object', properties: { v: { type: 'string', format } } };
      for (const [text, valid] of cases[format]) {
        assert.equal(FORMAT_CHECKS[format](text), valid, `${format} ${JSON.stringify(text)}`);
        assert.equal(checker.check(schema, { v: text }).length === 0, valid, `ajv: ${format} ${JSON.stringify(text)}`);
      }
    });
  }
});
