/**
 * The whole of a reply past its cap, in a file of the session's own (src/ui/agents/whole-replies.ts):
 * every chunk written in order and readable while the reply still streams, the file gone with its
 * entry, the folder gone with the session, and a window that starts sweeps away what windows no
 * longer running left, never a live window's.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepWholeReplies, WholeReplyFiles } from '../../src/ui/agents/whole-replies';
import { waitUntil } from '../support/wait';

describe("a session's whole replies", () => {
  let root: string;
  beforeEach(() => {
    root = join(mkdtempSync(join(tmpdir(), 'eh-whole-')), 'whole-replies');
  });

  it('writes every chunk after what came before the cap, readable while the reply streams; drops a file with its entry and the folder with the session', async () => {
    const warnings: string[] = [];
    const files = new WholeReplyFiles(root, (m) => warnings.push(m));
    assert.equal(existsSync(root), false, 'nothing is made before a reply passes its cap');
    files.begin('agent:3', 'the kept part, ');
    for (let i = 0; i < 1_000; i++) files.more('agent:3', `chunk ${i}, `);
    const path = await files.written('agent:3');
    assert.ok(path);
    assert.equal(readFileSync(path, 'utf8'), `the kept part, ${Array.from({ length: 1_000 }, (_, i) => `chunk ${i}, `).join('')}`);
    const folder = join(path, '..');
    assert.equal(statSync(folder).mode & 0o777, 0o700, 'the folder is the person’s alone');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    files.more('agent:3', 'and more');
    assert.ok(readFileSync((await files.written('agent:3'))!, 'utf8').endsWith('and more'), 'still written after it was opened');

    files.begin('thought:4', 'thinking');
    files.drop('agent:3');
    assert.equal(files.has('agent:3'), false);
    await waitUntil('the dropped file deleted', () => !existsSync(path), 5_000);
    assert.equal(await files.written('agent:3'), undefined);
    files.dispose();
    await waitUntil('the folder deleted with the session', () => !existsSync(folder), 5_000);
    assert.deepEqual(warnings, []);
  });

  it('a window that starts sweeps away the folders of windows no longer running, and keeps a live one’s', () => {
    mkdirSync(root, { recursive: true });
    // A process that has ended: its pid is free (for the moment of the test).
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const dead = mkdtempSync(join(root, `${ended}-`));
    const live = mkdtempSync(join(root, `${process.ppid}-`));
    const own = mkdtempSync(join(root, `${process.pid}-`));
    sweepWholeReplies(root);
    assert.deepEqual(readdirSync(root).sort(), [live, own].map((p) => p.split('/').at(-1)!).sort());
    assert.equal(existsSync(dead), false);
  });
});
