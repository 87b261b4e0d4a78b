import { strict as assert } from 'node:assert';
import { testFormat } from '../../src/elicitation/formats';
import { testPattern } from '../../src/elicitation/pattern';
import { CHECKS_GLOBAL, testFormat as pageTestFormat, testPattern as pageTestPattern } from '../../webview/checks-deferred';
// The checks bundle's entry: it registers the checks as it loads, as it does in the page.
import '../../webview/checks';

describe("the form page's pattern and format modules", () => {
  const registry = globalThis as Record<string, unknown>;
  const checks = registry[CHECKS_GLOBAL];
  after(() => delete registry[CHECKS_GLOBAL]);

  it('without the checks bundle give no verdict: the host decides on submit', () => {
    delete registry[CHECKS_GLOBAL];
    assert.equal(pageTestPattern('^[A-Z]{3}$', 'abc'), 'unchecked');
    assert.equal(pageTestFormat('email', 'not an address'), 'unchecked');
  });

  it("with it, reach the host's verdicts by running the host's code", () => {
    registry[CHECKS_GLOBAL] = checks;
    for (const [pattern, text] of [['^[A-Z]{3}$', 'abc'], ['^[A-Z]{3}$', 'ABC'], ['^(a+)+$', `${'a'.repeat(10_000)}!`], ['(a)\\1', 'aa']]) {
      assert.equal(pageTestPattern(pattern, text), testPattern(pattern, text), `${pattern} on ${text.slice(0, 20)}`);
    }
    for (const [format, text] of [['email', 'ada@example.com'], ['email', 'not an address'], ['uri', 'https://example.com/x'], ['uri', 'no scheme'], ['date', '2026-02-30'], ['date', '2026-11-28'], ['date-time', '2026-11-28T14:30:00Z'], ['date-time', '2026-11-28 14:30']] as const) {
      assert.equal(pageTestFormat(format, text), testFormat(format, text), `${format} on ${text}`);
    }
    assert.equal(pageTestFormat('email', 'not an address'), 'no-match');
    assert.equal(pageTestFormat('date', '2026-11-28'), 'match');
  });
});
