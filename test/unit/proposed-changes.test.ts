/**
 * An agent's proposed edit: counted (lines, files), grouped by file and checked against the
 * session's folders (outside, through a link out, too large: not shown, and why), and placed
 * in the file as it is now (a whole new text, or a snippet found exactly once, in the file's
 * own line ends; otherwise not placeable).
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { changeSummary, checkChanges, diffsOf, editWords, MAX_CHANGED_FILES, MAX_DIFF_TEXT, proposedText } from '../../src/acp/proposed-changes';

describe("an agent's proposed edit", () => {
  it('counts lines and files; ignores content that is not a well-formed diff', () => {
    const content = [
      { type: 'diff', path: '/w/a.txt', oldText: 'one\ntwo', newText: 'one\n2' },
      { type: 'content', content: { type: 'text', text: 'words' } },
      { type: 'diff', path: '/w/b.txt', oldText: null, newText: 'x\ny\nz' },
      { type: 'diff', path: 42, newText: 'bad' },
      { type: 'diff', path: '/w/c.txt' },
    ] as unknown as ToolCallContent[];
    assert.deepEqual(diffsOf(content), [
      { path: '/w/a.txt', edit: { oldText: 'one\ntwo', newText: 'one\n2' } },
      { path: '/w/b.txt', edit: { newText: 'x\ny\nz' } },
    ]);
    assert.equal(changeSummary(content), 'It changes 5 lines (4 added, 1 removed) in 2 files.');
    assert.equal(changeSummary([{ type: 'content', content: { type: 'text', text: 'no diff' } }]), undefined);
    assert.equal(editWords('a', 'b'), '+1 −1 lines');
    assert.equal(editWords(null, 'only'), 'new file, 1 line');
  });

  it('places the edit in the file as it is: a whole text, a snippet found once, CRLF files; not a snippet found twice or not at all', () => {
    assert.equal(proposedText(undefined, [{ newText: 'new file' }]), 'new file');
    assert.equal(proposedText('old whole', [{ oldText: 'old whole', newText: 'new whole' }]), 'new whole');
    assert.equal(proposedText('a\nb\nc\n', [{ oldText: 'b', newText: 'B\nB2' }]), 'a\nB\nB2\nc\n');
    assert.equal(proposedText('a\r\nb\r\nc\r\n', [{ oldText: 'a\nb', newText: 'x\ny' }]), 'x\r\ny\r\nc\r\n', "the file's own line ends");
    assert.equal(proposedText('a\nb\n', [{ oldText: 'a', newText: 'A' }, { oldText: 'b', newText: 'B' }]), 'A\nB\n', 'edits apply in order');
    assert.equal(proposedText('x x', [{ oldText: 'x', newText: 'y' }]), undefined, 'found twice: not placeable');
    assert.equal(proposedText('abc', [{ oldText: 'zzz', newText: 'y' }]), undefined, 'not found');
    assert.equal(proposedText('abc', [{ oldText: '', newText: 'y' }]), undefined, 'an empty snippet in a file with text');
    assert.equal(proposedText('', [{ oldText: '', newText: 'y' }]), 'y', 'an empty file filled');
  });

  describe('checked against the session folder', () => {
    let root: string;
    let folder: string;
    let outside: string;
    before(() => {
      root = realpathSync(mkdtempSync(join(tmpdir(), 'eh-changes-')));
      folder = join(root, 'work');
      outside = join(root, 'work-outside');
      mkdirSync(folder);
      mkdirSync(outside);
      writeFileSync(join(folder, 'a.txt'), 'a\n');
      writeFileSync(join(outside, 'secret.txt'), 'secret\n');
      symlinkSync(join(outside, 'secret.txt'), join(folder, 'link.txt'));
    });
    after(() => rmSync(root, { recursive: true, force: true }));

    it('inside (existing or new) is shown; outside, a link out and a `..` way out are not, with why; edits of one file go together', async () => {
      const content: ToolCallContent[] = [
        { type: 'diff', path: join(folder, 'a.txt'), oldText: 'a', newText: 'b' },
        { type: 'diff', path: join(folder, 'sub', 'new.txt'), newText: 'new' },
        { type: 'diff', path: join(outside, 'secret.txt'), oldText: 'secret', newText: 'x' },
        { type: 'diff', path: join(folder, 'link.txt'), oldText: 'secret', newText: 'x' },
        { type: 'diff', path: `${folder}/../work-outside/secret.txt`, newText: 'x' },
        { type: 'diff', path: join(folder, 'a.txt'), oldText: 'b', newText: 'c' },
      ];
      const changes = await checkChanges(content, [folder]);
      assert.deepEqual(
        changes.map((c) => [c.path, c.edits.length, c.refused === undefined]),
        [
          [join(folder, 'a.txt'), 2, true],
          [join(folder, 'sub', 'new.txt'), 1, true],
          [join(outside, 'secret.txt'), 1, false],
          [join(folder, 'link.txt'), 1, false],
          [`${folder}/../work-outside/secret.txt`, 1, false],
        ],
      );
      for (const refused of changes.filter((c) => c.refused !== undefined)) {
        assert.match(refused.refused!, /an agent may write files only inside its session's working directories/);
      }
      assert.deepEqual(changes[0].folders, [folder]);
    });

    it('too large, or too many files: bounded', async () => {
      const big = await checkChanges([{ type: 'diff', path: join(folder, 'a.txt'), newText: 'x'.repeat(MAX_DIFF_TEXT + 1) }], [folder]);
      assert.match(big[0].refused ?? '', /too large to show/);
      const many = Array.from({ length: MAX_CHANGED_FILES + 5 }, (_, i): ToolCallContent => ({ type: 'diff', path: join(folder, `f${i}.txt`), newText: 'x' }));
      assert.equal((await checkChanges(many, [folder])).length, MAX_CHANGED_FILES);
    });
  });
});
