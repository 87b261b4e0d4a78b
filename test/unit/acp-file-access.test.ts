/**
 * The rule for an agent's files (src/acp/file-access.ts) and the reads and writes that keep
 * to it (src/acp/folder-files.ts), on real links in a temporary folder: a dangling link,
 * links in a circle, a link out on the way or at the end, a sibling whose name starts like
 * the folder's, a pipe, a file too large to read whole; and what stays allowed: new files
 * and folders inside, a link that stays inside, an existing file's permissions, the lines
 * asked for of a large file.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFileAccess, FileAccessError, type LineWindow, linesOf } from '../../src/acp/file-access';
import { READ_LIMIT_BYTES, readInside, writeInside } from '../../src/acp/folder-files';

describe("ACP files: an agent reads and writes only inside its session's folder", () => {
  let base: string;
  let work: string;
  let outside: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'eh-file-access-')));
    work = join(base, 'work');
    outside = join(base, 'outside');
    mkdirSync(work);
    mkdirSync(outside);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const write = async (path: string, text: string): Promise<void> => writeInside(await checkFileAccess(path, [work], 'write'), text);
  const read = async (path: string, window?: LineWindow): Promise<string> => readInside(await checkFileAccess(path, [work], 'read'), window);
  const refused = (pattern: RegExp) => (error: unknown): boolean => {
    assert.ok(error instanceof FileAccessError, `a FileAccessError, not ${String(error)}`);
    assert.match(error.message, pattern);
    return true;
  };

  it('refuses a write through a link to a file that does not exist yet (notes.txt -> ~/.ssh/authorized_keys), and creates nothing', async () => {
    const keys = join(outside, 'authorized_keys');
    symlinkSync(keys, join(work, 'notes.txt'));
    await assert.rejects(write(join(work, 'notes.txt'), 'ssh-ed25519 AAAA attacker'), refused(/^Refused to write .*notes\.txt: it is a symbolic link to something that does not exist \(writing would create whatever it names/));
    assert.equal(existsSync(keys), false);
    // A relative one, and one that is a folder on the way.
    symlinkSync('../outside/new-folder', join(work, 'logs'));
    await assert.rejects(write(join(work, 'logs', 'today.txt'), 'x'), refused(/^Refused to write .*today\.txt: .*logs is a symbolic link to something that does not exist/));
    assert.deepEqual(readdirSync(outside), []);
    await assert.rejects(read(join(work, 'notes.txt')), refused(/^Refused to read .*notes\.txt: it is a symbolic link to something that does not exist$/));
  });

  it('refuses links in a circle, and a link out at the end or on the way (relative or absolute)', async () => {
    symlinkSync('b', join(work, 'a'));
    symlinkSync('a', join(work, 'b'));
    await assert.rejects(write(join(work, 'a'), 'x'), refused(/go round in a circle/));
    await assert.rejects(write(join(work, 'a', 'deeper.txt'), 'x'), refused(/go round in a circle/));
    writeFileSync(join(outside, 'secret.txt'), 'not yours');
    symlinkSync(join(outside, 'secret.txt'), join(work, 'secret.txt'));
    symlinkSync('..', join(work, 'up'));
    await assert.rejects(read(join(work, 'secret.txt')), refused(/^Refused to read .*secret\.txt \(really .*outside\/secret\.txt\): an agent may read files only inside/));
    await assert.rejects(write(join(work, 'secret.txt'), 'x'), refused(/^Refused to write .*\(really .*outside\/secret\.txt\)/));
    await assert.rejects(write(join(work, 'up', 'outside', 'new.txt'), 'x'), refused(/\(really .*outside\/new\.txt\)/));
    await assert.rejects(read(join(work, '..', 'outside', 'secret.txt')), refused(/^Refused to read /));
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'not yours');
    assert.deepEqual(readdirSync(outside), ['secret.txt']);
  });

  it("a sibling folder whose name starts with the folder's is outside", async () => {
    const sibling = `${work}-old`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, 'a.txt'), 'sibling');
    symlinkSync(sibling, join(work, 'old'));
    await assert.rejects(read(join(sibling, 'a.txt')), refused(/^Refused to read /));
    await assert.rejects(read(join(work, 'old', 'a.txt')), refused(/\(really .*work-old\/a\.txt\)/));
    await assert.rejects(write(join(work, 'old', 'b.txt'), 'x'), refused(/^Refused to write /));
    assert.deepEqual(readdirSync(sibling), ['a.txt']);
  });

  it('writes inside: a new file, new folders, through a link that stays inside, and an existing file keeps its permissions', async () => {
    await write(join(work, 'a', 'b', 'new.txt'), 'new');
    assert.equal(readFileSync(join(work, 'a', 'b', 'new.txt'), 'utf8'), 'new');
    writeFileSync(join(work, 'AGENTS.md'), 'old');
    symlinkSync('AGENTS.md', join(work, 'CLAUDE.md'));
    await write(join(work, 'CLAUDE.md'), 'through the link');
    assert.equal(readFileSync(join(work, 'AGENTS.md'), 'utf8'), 'through the link');
    assert.equal(await read(join(work, 'CLAUDE.md')), 'through the link');
    writeFileSync(join(work, 'run.sh'), 'echo old');
    chmodSync(join(work, 'run.sh'), 0o750);
    await write(join(work, 'run.sh'), 'echo new');
    assert.equal(statSync(join(work, 'run.sh')).mode & 0o777, 0o750);
    assert.equal(readFileSync(join(work, 'run.sh'), 'utf8'), 'echo new');
    // No temporary file is left behind.
    assert.deepEqual(readdirSync(work).sort(), ['AGENTS.md', 'CLAUDE.md', 'a', 'run.sh']);
    // A folder opened through a link is still itself.
    symlinkSync(work, join(base, 'work-link'));
    assert.equal((await checkFileAccess(join(base, 'work-link', 'run.sh'), [join(base, 'work-link')], 'read')).real, join(work, 'run.sh'));
  });

  it('reads no pipe or device: refused at once instead of waiting for a writer that never comes', async function () {
    const pipe = join(work, 'pipe');
    try {
      execFileSync('mkfifo', [pipe]);
    } catch (error) {
      throw new Error(`this test makes a named pipe with mkfifo (coreutils), which failed: ${String(error)}`, { cause: error });
    }
    await assert.rejects(read(pipe), refused(/^Refused to read .*pipe: it is not a regular file/));
    await assert.rejects(read(work), /work is a folder, not a file/);
  });

  it('reads a file over the limit only in the lines asked for, as a small file gives them; never whole', async function () {
    this.timeout(30_000); // 64 MB written and read
    // Lines of 15 bytes, a little over the limit in all.
    const count = Math.ceil(READ_LIMIT_BYTES / 15) + 1000;
    const line = (n: number): string => `line ${String(n).padStart(9, '0')}`;
    const big = join(work, 'big.log');
    writeFileSync(big, Array.from({ length: count }, (_, n) => `${line(n + 1)}\n`).join(''));
    assert.ok(statSync(big).size > READ_LIMIT_BYTES);
    await assert.rejects(read(big), refused(new RegExp(`^Refused to read .*big\\.log whole: it is ${(count * 15).toLocaleString('en-US')} bytes, over the 32 MB read at once; ask for some of its lines \\(line and limit\\)$`)));
    assert.equal(await read(big, { line: 1, limit: 2 }), `${line(1)}\n${line(2)}`);
    // Across the reads' 1 MB chunks: line 69,906 starts a byte before the first chunk's end.
    assert.equal(await read(big, { line: 69_905, limit: 3 }), [69_905, 69_906, 69_907].map(line).join('\n'));
    // To the end: the last line and the empty one after its newline, as split('\n') has it.
    assert.equal(await read(big, { line: count }), `${line(count)}\n`);
    assert.equal(await read(big, { line: count + 5, limit: 2 }), '');
    assert.equal(await read(big, { line: 3, limit: 0 }), '');
    // The rest of the file from the second line is over the limit itself.
    await assert.rejects(read(big, { line: 2 }), refused(/^Refused to read lines of .*big\.log: the lines asked for are over the 32 MB read at once$/));
    // Characters of several bytes split across chunks are kept whole; a small file gives the same lines.
    const wide = join(work, 'wide.txt');
    const text = `${'é'.repeat(READ_LIMIT_BYTES / 2 + 7)}\nzweite Zeile ü\n€nde`;
    writeFileSync(wide, text);
    assert.equal(await read(wide, { line: 2, limit: 2 }), linesOf(text, 2, 2));
    assert.equal(await read(wide, { line: 3 }), '€nde');
    const small = join(work, 'small.txt');
    writeFileSync(small, 'a\nb\nc\n');
    for (const window of [{}, { line: 2 }, { line: 2, limit: 1 }, { limit: 2 }, { line: 9 }] as LineWindow[]) {
      assert.equal(await read(small, window), linesOf('a\nb\nc\n', window.line, window.limit), JSON.stringify(window));
    }
  });
});
