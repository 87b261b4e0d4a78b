import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { compileBoundedPattern, PatternSyntaxError } from '../../src/elicitation/pattern';

function outcome(pattern: string, text: string): string {
  return compileBoundedPattern(pattern).test(text);
}

describe('bounded pattern matcher', () => {
  const agreesWithNative: Array<[string, string[]]> = [
    ['^[A-Z]{3}-\\d+$', ['ABC-123', 'AB-123', 'ABCD-1', 'ABC-']],
    ['b', ['abc', 'xyz', '']],
    ['(a|ab)(c|bcd)(d*)', ['abcd', 'ac', 'abd']],
    ['^(\\w)\\1$', ['aa', 'ab']],
    ['^(?<x>\\w)\\k<x>$', ['zz', 'zy']],
    ['(?<=\\$)\\d+', ['cost $42', 'cost 42']],
    ['(?<!\\$)\\b\\d+', ['$42', '42']],
    ['^(?!foo)\\w+$', ['foobar', 'barfoo']],
    ['^(?=.*\\d)(?=.*[a-z]).{6,}$', ['abc123', 'abcdef', '12']],
    ['^(a*)*$', ['aaaa', 'aab']],
    ['^(a*)*b$', ['aaaa', 'aaab']],
    ['\\bcat\\b', ['a cat here', 'concatenate']],
    ['^\\p{L}+$', ['héllo', 'h3llo']],
    ['^\\P{L}$', ['1', 'a']],
    ['^.$', ['😀', 'ab', '\n']],
    ['^[😀-😂]$', ['😁', '😃']],
    ['^\\u{1F600}$', ['😀']],
    ['^\\uD83D\\uDE00$', ['😀']],
    ['^a{2,3}?$', ['aaa', 'a', 'aaaa']],
    ['^a{2,}$', ['aa', 'a']],
    ['^(?:ab|a)*?c$', ['ababac', 'abx']],
    ['x*', ['']],
    ['^[^\\]\\\\]+$', ['abc', 'a]b', 'a\\b']],
    ['^\\x41\\u0042\\cJ$', ['AB\n', 'AB']],
    ['^[\\d\\s]+$', ['1 2', '1a']],
    ['^\\d{3}(-\\d{4})?$', ['555', '555-1234', '555-12']],
    ['^https?://[^\\s/$.?#].[^\\s]*$', ['https://example.com/x', 'ftp://x']],
    ['^\\.$', ['.', 'a']],
    ['^(a|b|c)+$', ['abcabc', 'abd']],
    ['\\$\\{[^}]+\\}', ['${x}', '$x']],
  ];
  for (const [pattern, texts] of agreesWithNative) {
    it(`agrees with RegExp on ${pattern}`, () => {
      const native = new RegExp(pattern, 'u');
      for (const text of texts) {
        assert.equal(outcome(pattern, text), native.test(text) ? 'match' : 'no-match', `${pattern} on ${JSON.stringify(text)}`);
      }
    });
  }

  it('gives up on catastrophic backtracking instead of hanging', () => {
    const started = Date.now();
    assert.equal(outcome('^(a+)+$', `${'a'.repeat(40)}b`), 'too-complex');
    assert.equal(outcome('^(a|a)*$', `${'a'.repeat(40)}b`), 'too-complex');
    assert.equal(outcome('(x+x+)+y', 'x'.repeat(5000)), 'too-complex');
    // Not a timing assertion on the result: a generous ceiling so a hang fails the test.
    assert.ok(Date.now() - started < 10_000);
  });

  it('handles 100 kB inputs against ordinary patterns', () => {
    const big = 'a'.repeat(100_000);
    assert.equal(outcome('^[a-z]*$', big), 'match');
    assert.equal(outcome('^[a-z]+b$', big), 'no-match');
    assert.equal(outcome('^(a|a)*$', big), 'match');
  });

  it('the step budget bounds the work', () => {
    const tight = compileBoundedPattern('^[a-z]*$', 1000);
    assert.equal(tight.test('a'.repeat(100)), 'match');
    assert.equal(tight.test('a'.repeat(10_000)), 'too-complex');
  });

  const refused: Array<[string, RegExp]> = [
    ['[', /Unterminated character class/],
    ['(?<a>x)(?<a>y)', /Duplicate capture group name/],
    ['a{1,100000}', /too large to check safely/],
    ['\\', /\\ at end of pattern/],
    ['(?i:a)', /Invalid group/],
  ];
  for (const [pattern, message] of refused) {
    it(`refuses ${pattern}`, () => {
      assert.throws(() => compileBoundedPattern(pattern), (e: unknown) => e instanceof PatternSyntaxError && message.test(e.message));
    });
  }

  it('property: agrees with the native engine on random simple patterns', () => {
    const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', '\\w', '(?:ab)', '(a|b)', '\\b', '^', '$', '(?=a)', '(?!b)');
    const quant = fc.constantFrom('', '*', '+', '?', '{0,2}', '{1}', '*?', '+?');
    const pattern = fc.array(fc.tuple(atom, quant), { minLength: 1, maxLength: 5 }).map((parts) =>
      parts.map(([a, q]) => (['^', '$', '\\b', '(?=a)', '(?!b)'].includes(a) ? a : a + q)).join(''),
    );
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '-'), maxLength: 12 });
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        const ours = outcome(p, t);
        const native = new RegExp(p, 'u').test(t) ? 'match' : 'no-match';
        return ours === native;
      }),
      { numRuns: 3000 },
    );
  });
});
