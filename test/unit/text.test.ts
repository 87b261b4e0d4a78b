import { strict as assert } from 'node:assert';
import { dialogHeading, dialogText, escapeIcons, iconSafe, linkSafe, messageSafe, oneLine, plain, statusSafe, wrap } from '../../src/ui/text';
import { DIALOG_ROOM, textRows } from '../../src/elicitation/fit-text';

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

  it('does both, on one line, for the status bar (which draws icons and links); the break survives the line cleanup', () => {
    assert.equal(statusSafe(`${MARKUP}\nsecond line`), '\\$(alert) [Open settings]\u200B(command:workbench.action.openSettings) second line');
    assert.equal(statusSafe('x'.repeat(10), 5), 'xxxx…');
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

  it('every surface loses bidi controls and zero-width characters first, then gets its own escaping', () => {
    const hidden = 'pay\u202Egnp.exe\u200B \u2066x\u2069';
    for (const [name, shown] of [['oneLine', oneLine(hidden)], ['iconSafe', iconSafe(hidden)], ['plain', plain(hidden)], ['escapeIcons', escapeIcons(hidden)], ['wrap', wrap(hidden).join('\n')]]) {
      assert.equal(shown, 'paygnp.exe x', name);
    }
    // The zero-width space that breaks a link is ours, added after the server's were removed.
    assert.equal(linkSafe(`\u202E${MARKUP}`), '$(alert) [Open settings]\u200B(command:workbench.action.openSettings)');
    assert.equal(messageSafe(`[a]\u200B\u200B(command:x)`), '[a]\u200B(command:x)');
  });

  it('plain text keeps its lines and is capped', () => {
    assert.equal(plain('a\nb'), 'a\nb');
    assert.equal(plain('x'.repeat(50), 10), `${'x'.repeat(9)}…`);
  });

  it('a dialog shows what would hide or reorder text as <U+XXXX> rather than dropping it, and says so of blank runs', () => {
    assert.equal(dialogHeading('"evil\u202Etxt.exe" wants\nto run'), '"evil<U+202E>txt.exe" wants to run');
    const shown = dialogText(`rm -rf \u2066x\u2069\u200B${'\n'.repeat(40)}done\u001b[0m`);
    assert.equal(shown.text, 'rm -rf <U+2066>x<U+2069><U+200B>\n<39 blank lines>\ndone<U+001B>[0m');
    assert.equal(shown.complete, true);
  });

  it("a dialog's detail too long for it keeps its start and its end, and says it is incomplete", () => {
    const detail = ['The server asks:', ...Array.from({ length: 200 }, (_, i) => `filler line ${i}`), 'THE LAST WORD'].join('\n');
    const shown = dialogText(detail);
    assert.equal(shown.complete, false);
    assert.ok(shown.text.startsWith('The server asks:\n'));
    assert.ok(shown.text.endsWith('\nTHE LAST WORD'));
    assert.match(shown.text, /<… \d+ lines \([\d,]+ characters\) hidden …>/);
    assert.ok(textRows(shown.text, DIALOG_ROOM.columns) <= DIALOG_ROOM.rows);
  });
});
