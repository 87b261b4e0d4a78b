import { strict as assert } from 'node:assert';
import { escapeIcons, iconSafe, linkSafe, messageSafe, oneLine, wrap } from '../../src/ui/text';

const MARKUP = '$(alert) [Open settings](command:workbench.action.openSettings)';

describe('server text in VS Code widgets', () => {
  it('escapes icon syntax for widgets that draw icons, once, leaving escaped ones alone', () => {
    assert.equal(escapeIcons('$(alert) and $(sync~spin) and \\$(kept)'), '\\$(alert) and \\$(sync~spin) and \\$(kept)');
    assert.equal(iconSafe(MARKUP), '\\$(alert) [Open settings](command:workbench.action.openSettings)');
  });

  it('breaks link syntax for notifications, with a zero-width space that changes nothing a person reads', () => {
    const safe = linkSafe(MARKUP);
    assert.equal(safe, '$(alert) [Open settings]\u200B(command:workbench.action.openSettings)');
    assert.equal(safe.replace(/\u200B/g, ''), MARKUP);
  });

  it('does both for the input box message, keeping its lines', () => {
    assert.equal(messageSafe(`${MARKUP}\nsecond line`), '\\$(alert) [Open settings]\u200B(command:workbench.action.openSettings)\nsecond line');
  });

  it('puts text on one line and cuts it with an ellipsis', () => {
    assert.equal(oneLine('a\n  b\r\nc'), 'a b c');
    assert.equal(oneLine('x'.repeat(50), 10), `${'x'.repeat(9)}…`);
  });

  it('wraps long messages at spaces, keeping paragraphs, and cuts words longer than a line', () => {
    assert.deepEqual(wrap('one two three four', 9), ['one two', 'three', 'four']);
    assert.deepEqual(wrap('a\n\nb', 80), ['a', '', 'b']);
    assert.deepEqual(wrap('x'.repeat(12), 5), ['xxxxx', 'xxxxx', 'xx']);
  });
});
