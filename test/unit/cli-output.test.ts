import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createOutput, jsonLine } from '../../src/cli/output';
import { terminalSafe } from '../../src/elicitation/plain-text';

// eslint-disable-next-line no-control-regex -- these characters are what the tests look for
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** Any UTF-16 text, lone surrogates included, weighted towards the control and format characters. */
const utf16 = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0x9f }), fc.integer({ min: 0x2000, max: 0x206f })), { maxLength: 40 })
  .map((codes) => String.fromCharCode(...codes));

describe('runner output', () => {
  it('JSON lines parse to exactly the values given, and show a terminal no control or invisible character', () => {
    fc.assert(
      fc.property(utf16, fc.string({ unit: 'grapheme', maxLength: 20 }), (text, other) => {
        const record = { type: 'result', text, nested: [{ other }] };
        const line = jsonLine(record);
        assert.deepEqual(JSON.parse(line), record);
        assert.doesNotMatch(line, UNSAFE);
      }),
      { numRuns: 1000 },
    );
    assert.equal(jsonLine({ m: '\u009b2J \u202Eexe ☕ é' }), '{"m":"\\u009b2J \\u202eexe ☕ é"}');
  });

  it('escapes in JSON lines every character that terminalSafe removes, and no other', () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCharCode(code);
      const escaped = jsonLine({ c }) !== JSON.stringify({ c });
      const unescaped = JSON.stringify({ c }) === `{"c":"${c}"}`;
      assert.equal(escaped, unescaped && terminalSafe(c) !== c, `U+${code.toString(16)}`);
    }
  });

  it('lines for people and error messages lose control and invisible characters; JSON mode writes records', () => {
    const written: string[] = [];
    const human = createOutput(false, (t) => written.push(`out:${t}`), (t) => written.push(`err:${t}`));
    human.line('? a\u001b[2J\u202E: b\r\nc', { type: 'x' });
    human.error('bad \u001b]0;t\u0007 \u200Bthing');
    const json = createOutput(true, (t) => written.push(`out:${t}`), (t) => written.push(`err:${t}`));
    json.error('bad \u001b', { request: 'r1' });
    assert.deepEqual(written, ['out:? a[2J: b\nc\n', 'err:error: bad ]0;t thing\n', 'out:{"type":"error","message":"bad \\u001b","request":"r1"}\n']);
  });
});
