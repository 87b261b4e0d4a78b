import assert from 'node:assert/strict';
import { terminalSafe, withoutInvisible } from '../../src/elicitation/plain-text';
import { sourceLabel } from '../../src/elicitation/request';

describe('plain text from servers', () => {
  it('removes bidi overrides, isolates and zero-width characters, and nothing else', () => {
    assert.equal(withoutInvisible('pay\u202Egnp.exe'), 'paygnp.exe');
    assert.equal(withoutInvisible('a\u200Bp\u200Dp\u2066le\u2069\uFEFF'), 'apple');
    assert.equal(withoutInvisible('Café ☕ 東京 — ok\n\tnext'), 'Café ☕ 東京 — ok\n\tnext');
  });

  it('terminal text loses escape sequences and other control characters but keeps lines and tabs', () => {
    assert.equal(terminalSafe('\u001b[2J\u001b]0;title\u0007red\u009b31m\r\nnext\tcol'), '[2J]0;titlered31m\nnext\tcol');
    assert.equal(terminalSafe('a\u0000b\u007fc\u0085d'), 'abcd');
  });

  it('names who asks: server and tool, an extension as such, and the agent whose call asked', () => {
    assert.equal(sourceLabel({ server: 'restaurant', tool: 'book_restaurant' }), 'restaurant · book_restaurant');
    assert.equal(sourceLabel({ server: 'restaurant', tool: 'book_restaurant', agent: 'Claude Code' }), 'restaurant · book_restaurant, for Claude Code');
    assert.equal(sourceLabel({ server: 'Deploy Helper', requester: 'extension' }), 'Extension: Deploy Helper');
    assert.equal(sourceLabel({ server: 'evil\u202Etxt.exe' }), 'eviltxt.exe');
  });
});
