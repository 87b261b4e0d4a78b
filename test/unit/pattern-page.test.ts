import { strict as assert } from 'node:assert';
import { testPattern } from '../../src/elicitation/pattern';
import { MATCHER_GLOBAL, testPattern as pageTestPattern } from '../../webview/pattern-deferred';
// The matcher bundle's entry: it registers the matcher as it loads, as it does in the page.
import '../../webview/pattern-matcher';

describe("the form page's pattern module", () => {
  const registry = globalThis as Record<string, unknown>;
  const matcher = registry[MATCHER_GLOBAL];
  after(() => delete registry[MATCHER_GLOBAL]);

  it('without the matcher bundle gives no verdict: the host decides on submit', () => {
    delete registry[MATCHER_GLOBAL];
    assert.equal(pageTestPattern('^[A-Z]{3}$', 'abc'), 'unchecked');
  });

  it("with it, reaches the host's verdicts by running the host's code", () => {
    registry[MATCHER_GLOBAL] = matcher;
    for (const [pattern, text] of [['^[A-Z]{3}$', 'abc'], ['^[A-Z]{3}$', 'ABC'], ['^(a+)+$', `${'a'.repeat(10_000)}!`], ['(a)\\1', 'aa']]) {
      assert.equal(pageTestPattern(pattern, text), testPattern(pattern, text), `${pattern} on ${text.slice(0, 20)}`);
    }
  });
});
