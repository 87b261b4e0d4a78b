import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { LIMITS } from '../../src/elicitation/limits';
import { checkPattern, compiledPatternCount, testPattern } from '../../src/elicitation/pattern';
import { NativeRegExp } from './native-regexp';

function native(pattern: string, text: string): string {
  return new RegExp(pattern, 'u').test(text) ? 'match' : 'no-match';
}

describe('pattern (ECMA-262 read into RE2, run by re2js)', () => {
  const agreesWithNative: Array<[string, string[]]> = [
    ['^[A-Z]{3}-\\d+$', ['ABC-123', 'AB-123', 'ABCD-1', 'ABC-']],
    ['b', ['abc', 'xyz', '']],
    ['(a|ab)(c|bcd)(d*)', ['abcd', 'ac', 'abd']],
    ['(?<=\\$)\\d+', ['cost $42', 'cost 42']],
    ['(?<!\\$)\\b\\d+', ['$42', '42']],
    ['(?<=(?:a|bc)+)d', ['bcad', 'xd']],
    ['^(?!foo)\\w+$', ['foobar', 'barfoo']],
    ['^(?=.*\\d)(?=.*[a-z]).{6,}$', ['abc123', 'abcdef', '12', 'abc\n123']],
    ['^(?=.*[A-Z])(?!.*\\s).{8,}$|^admin$', ['Password1', 'pass word1A', 'admin', 'password']],
    ['^(a*)*$', ['aaaa', 'aab']],
    ['^(a*)*b$', ['aaaa', 'aaab']],
    ['\\bcat\\b', ['a cat here', 'concatenate', 'écat']],
    ['^\\p{L}+$', ['héllo', 'h3llo']],
    ['^\\P{L}$', ['1', 'a']],
    ['^\\p{Letter}\\p{gc=Nd}$', ['é7', '77']],
    ['^\\p{Script=Greek}+$', ['αβγ', 'abc']],
    ['^\\p{ASCII}+$', ['abc', 'é']],
    ['^[^\\P{Lu}]$', ['A', 'a']],
    ['^.$', ['😀', 'ab', '\n', '\r', '\u2028', '\u0085', '\uD800']],
    ['^[😀-😂]$', ['😁', '😃']],
    ['^\\u{1F600}$', ['😀']],
    ['^\\uD83D\\uDE00$', ['😀', '\uD83D']],
    ['^\\s+$', [' \t\n', '\u00a0\ufeff\u3000\u2028\v', '\u0085', 'a']],
    ['^[\\S\\d]+$', ['a1', ' ', '\u00a0']],
    ['^[]$', ['', 'a']],
    ['^[^]$', ['a', '\n']],
    ['^a{2,3}?$', ['aaa', 'a', 'aaaa']],
    ['^(?:ab|a)*?c$', ['ababac', 'abx']],
    ['x*', ['']],
    ['^[^\\]\\\\]+$', ['abc', 'a]b', 'a\\b']],
    ['^\\x41\\u0042\\cJ\\0$', ['AB\n\0', 'AB']],
    ['^[\\b]$', ['\b', 'b']],
    ['^(?<year>\\d{4})-(?<month>\\d{2})$', ['2026-11', '2026-1']],
    ['^https?://[^\\s/$.?#].[^\\s]*$', ['https://example.com/x', 'ftp://x']],
    ['\\$\\{[^}]+\\}', ['${x}', '$x']],
    ['a$', ['a\n', 'a']],
    ['^$', ['', '\n']],
  ];
  for (const [pattern, texts] of agreesWithNative) {
    it(`agrees with RegExp on ${pattern}`, () => {
      assert.deepEqual(checkPattern(pattern).ok, true, JSON.stringify(checkPattern(pattern)));
      for (const text of texts) assert.equal(testPattern(pattern, text), native(pattern, text), `${pattern} on ${JSON.stringify(text)}`);
    });
  }

  it('checks unanchored patterns on 1 kB to 100 kB answers in linear time (no "too complex")', () => {
    for (const size of [1_000, 10_000, 100_000]) {
      const digits = `${'a'.repeat(size - 1)}7`;
      const letters = 'a'.repeat(size);
      assert.equal(testPattern('\\d+$', digits), 'match');
      assert.equal(testPattern('\\d+$', letters), 'no-match');
      assert.equal(testPattern('[a-z]+@', letters), 'no-match');
      assert.equal(testPattern('[a-z]+@', `${letters}@`), 'match');
      assert.equal(testPattern('^(a|a)*$', letters), 'match');
      assert.equal(testPattern('^(a+)+$', `${letters}!`), 'no-match');
      assert.equal(testPattern('(x+x+)+y', 'x'.repeat(size)), 'no-match');
    }
  });

  it('never gives the opposite of the native verdict on back-references: it refuses them by name', () => {
    // The old backtracking matcher said "match" here where JavaScript says no, and the reverse.
    for (const [pattern, text] of [['^(?:(a)|b)+\\1$', 'ab'], ['^(?:(a)|b)+\\1$', 'aba'], ['(?<=(a+))b\\1', 'aaba']]) {
      const check = checkPattern(pattern);
      assert.equal(check.ok, false);
      assert.match(!check.ok ? check.message : '', /back-reference \(\\1\)/);
      assert.equal(testPattern(pattern, text), 'too-complex', `${pattern} on ${text}: no verdict rather than a wrong one`);
    }
  });

  const refused: Array<[string, RegExp]> = [
    ['[', /not a valid pattern: .*Unterminated character class/],
    ['(?<a>x)(?<a>y)', /not a valid pattern: .*Duplicate capture group name/],
    ['\\', /not a valid pattern/],
    ['(a)\\1', /back-reference \(\\1\)/],
    ['(?<n>a)\\k<n>', /back-reference \(\\k<n>\)/],
    ['a(?=b)', /lookahead .* anywhere but right after a leading \^/],
    ['^(?:(?=a)b)', /lookahead/],
    ['(?<=(?=a)a)b', /lookahead inside a lookbehind/],
    ['a{1001}', /repetition count above 1000 \(\{1001\}\)/],
    ['(?:[a-z]{1,999}){1,49}', /nested repetitions whose counts multiply past 1000/],
    ['\\p{scx=Greek}', /Unicode property scx/],
    ['a'.repeat(LIMITS.patternChars + 1), /over the limit of 2,000 characters for a pattern/],
    ['(?:[a-z]{1,30}){1,30}(?:[a-z]{1,30}){1,30}(?:[a-z]{1,30}){1,30}', /over the limit of 2,500 instructions for a pattern/],
  ];
  for (const [pattern, message] of refused) {
    it(`refuses ${pattern.length > 40 ? `${pattern.slice(0, 40)}…` : pattern} with a precise reason`, () => {
      const check = checkPattern(pattern);
      assert.equal(check.ok, false);
      assert.match(!check.ok ? check.message : '', message);
    });
  }

  it('stops at the work limit instead of holding the thread: "too complex", never a guess', () => {
    const big = '(?:a[ab]{99}){10}$'; // about 1,000 instructions
    assert.equal(checkPattern(big).ok, true);
    assert.notEqual(testPattern(big, 'ab'.repeat(2_000)), 'too-complex');
    assert.equal(testPattern(big, 'ab'.repeat(50_000)), 'too-complex');
  });

  it('keeps a bounded number of compiled patterns however many it meets', () => {
    // 1,000 is enough to show the bound (an unbounded cache keeps all of them) and quick on a busy machine.
    for (let i = 0; i < 1_000; i++) testPattern(`^x${i}[a-z]+$`, `x${i}abc`);
    assert.ok(compiledPatternCount() <= 64, `${compiledPatternCount()} patterns kept`);
  });

  describe('agrees with the native engine (fast-check): captures, back-references, lookaround, 1-100 kB texts', () => {
    const oracle = new NativeRegExp();
    after(() => oracle.close());

    const atom = fc.constantFrom(
      'a', 'b', '.', '[ab]', '[^a]', '\\d', '\\w', '\\s', '\\S', '(a|b)', '(?:ab)', '(?<g>a|bb)', '(a*)', '\\u00e9', '[\\u{1F600}-\\u{1F602}]',
      '\\p{L}', '\\1', '\\k<g>', '(?<=a)', '(?<!b)', '(?<=(a+))', '(?<=[ab]{2})', '(?=a)', '(?!b)', '\\b', '\\B', '^', '$',
    );
    const quantifier = fc.constantFrom('', '', '*', '+', '?', '{0,2}', '{2}', '{1,}', '*?', '+?');
    const unquantifiable = new Set(['\\1', '\\k<g>', '(?<=a)', '(?<!b)', '(?<=(a+))', '(?<=[ab]{2})', '(?=a)', '(?!b)', '\\b', '\\B', '^', '$']);
    const body = fc
      .array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.map(([a, q]) => (unquantifiable.has(a) ? a : a + q)).join(''));
    // Leading lookaheads after ^ (the shape that is decomposed), alternation, or a plain sequence.
    const pattern = fc.oneof(
      body,
      fc.tuple(body, body).map(([x, y]) => `${x}|${y}`),
      fc.tuple(fc.constantFrom('(?=.*a)', '(?!.*bb)', '(?=[ab])', '(?=.*\\d)(?!a)'), body).map(([look, rest]) => `^${look}${rest}`),
    );
    const unit = fc.constantFrom('a', 'b', 'a', 'b', '1', ' ', '\n', '\u00a0', 'é', '😀', '\u2028');
    const shortText = fc.string({ unit, maxLength: 16 });
    // A long text: a random piece repeated to 1-100 kB, with a random head and tail, so it has structure.
    const longText = fc
      .tuple(fc.string({ unit, minLength: 1, maxLength: 8 }), fc.integer({ min: 1_000, max: 100_000 }), shortText, shortText)
      .map(([piece, size, head, tail]) => head + piece.repeat(Math.ceil(size / piece.length)).slice(0, size) + tail);

    interface Tally {
      decided: number;
      refused: number;
      tooComplex: number;
      nativeTimedOut: number;
    }

    function agree(tally: Tally, p: string, t: string): boolean {
      if (!checkPattern(p).ok) {
        tally.refused++;
        // A refused pattern gives no verdict at all: nothing to disagree with.
        return testPattern(p, t) === 'too-complex';
      }
      const ours = testPattern(p, t);
      if (ours === 'too-complex') {
        tally.tooComplex++;
        // Only where the work limit can end (a text long enough for some accepted pattern to
        // reach it), or for a word boundary next to a character outside the BMP, where re2js
        // and V8 disagree (V8 even finds a \B inside a surrogate pair).
        return t.length * LIMITS.patternProgram > LIMITS.patternWork || (/\\[bB]/.test(p) && /[\uD800-\uDFFF]/.test(t));
      }
      const theirs = oracle.test(p, t);
      if (theirs === 'timed-out') {
        tally.nativeTimedOut++;
        return true;
      }
      tally.decided++;
      if (ours !== theirs) throw new Error(`${p} on ${JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…(${t.length})` : t)}: ours ${ours}, native ${theirs}`);
      return true;
    }

    it('short texts', () => {
      const tally: Tally = { decided: 0, refused: 0, tooComplex: 0, nativeTimedOut: 0 };
      fc.assert(fc.property(pattern, shortText, (p, t) => agree(tally, p, t)), { numRuns: 3000 });
      // The property means little unless most cases were really compared.
      assert.ok(tally.decided > 1200, JSON.stringify(tally));
    });

    it('1-100 kB texts', function () {
      this.timeout(120_000);
      const tally: Tally = { decided: 0, refused: 0, tooComplex: 0, nativeTimedOut: 0 };
      fc.assert(fc.property(pattern, longText, (p, t) => agree(tally, p, t)), { numRuns: 250 });
      // About 40% of cases are compared (the rest are refused patterns or past the work limit):
      // some 100 of 250, so 60 is far below any run's count (150 runs fell under it half the time).
      assert.ok(tally.decided > 60, JSON.stringify(tally));
    });
  });
});
