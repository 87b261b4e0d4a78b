/**
 * An agent's files through src/acp, the fixture agent asking (test/fixtures/acp, its `files`
 * prompt): nothing outside the session's folder is read, created or changed, whatever links
 * the folder holds or gains while we work. A repository's dangling link; a helper process of
 * the agent swapping the file, or a folder on its way, for a link out while the agent reads
 * and writes; no reads in an untrusted workspace; and a property test over random folders of
 * links (dangling, in a circle, relative, absolute, to parents, to a sibling whose name starts
 * like the folder's), inside and outside the folder.
 */
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import type { AgentClient } from '../../src/acp/agent-client';
import type { AgentSession } from '../../src/acp/agent-session';
import { type AcpHost, createAcpHost, fixtureAgent } from '../support/acp-harness';
import { ScriptedPrompter } from '../support/scripted-prompter';
import { waitUntilGone } from '../support/wait';

type FileOp = { read: string; line?: number; limit?: number } | { write: string; text: string };
type FileResult = { content: string } | { ok: true } | { error: string };

/** Runs the fixture's `files` prompt: the requests in order, each outcome as the agent saw it. */
async function files(session: AgentSession, ops: readonly FileOp[]): Promise<FileResult[]> {
  let reply = '';
  const stop = session.events.add((e) => {
    if (e.type === 'message' && e.role === 'agent') reply += e.text;
  });
  try {
    await session.prompt(`files ${JSON.stringify(ops)}`);
  } finally {
    stop();
  }
  assert.match(reply, /^files: /, reply);
  return JSON.parse(reply.slice('files: '.length)) as FileResult[];
}

/** Everything under `dir` but `except`, as lstat sees it (links not followed): what a run must leave as it was. */
function snapshot(dir: string, except: string): Record<string, string> {
  const seen: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (path === except) continue;
      const stat = lstatSync(path);
      const key = relative(dir, path);
      if (stat.isSymbolicLink()) seen[key] = `link ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        seen[key] = `folder ${stat.mode.toString(8)}`;
        walk(path);
      } else seen[key] = `file ${stat.mode.toString(8)} ${readFileSync(path, 'utf8')}`;
    }
  };
  walk(dir);
  return seen;
}

/**
 * A helper process of the agent's that keeps swapping `dir/name` for a link to `out` and
 * back (`file`: the file itself; `folder`: a folder on the way, moved aside and back).
 * Resolves once it is swapping.
 */
function startSwapper(mode: 'file' | 'folder', dir: string, name: string, out: string): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs'), p = require('node:path');
    const [mode, dir, name, out] = process.argv.slice(1);
    const at = p.join(dir, name), link = p.join(dir, '.swap-link'), aside = p.join(dir, '.swap-aside'), file = p.join(dir, '.swap-file');
    const quietly = (f) => { try { f(); } catch {} };
    process.stdout.write('swapping\\n');
    for (;;) {
      if (mode === 'file') {
        quietly(() => { fs.writeFileSync(file, 'inside'); fs.renameSync(file, at); });
      } else {
        quietly(() => fs.renameSync(at, aside));
      }
      quietly(() => { fs.rmSync(link, { force: true }); fs.symlinkSync(out, link); fs.renameSync(link, at); });
      if (mode === 'folder' && fs.existsSync(aside)) quietly(() => { fs.rmSync(at, { recursive: true, force: true }); fs.renameSync(aside, at); });
    }`;
  const child = spawn(process.execPath, ['-e', script, mode, dir, name, out], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', () => resolve(child));
  });
}

async function stopSwapper(child: ChildProcess): Promise<void> {
  child.kill();
  await waitUntilGone(child.pid!);
}

const refusals = (results: FileResult[]): number => results.filter((r) => 'error' in r && /Refused to/.test(r.error)).length;

describe('ACP files: nothing outside the session folder is read, created or changed', function () {
  this.timeout(120_000);
  let acp: AcpHost;
  let client: AgentClient;
  let base: string;
  let work: string;
  let outside: string;

  before(async () => {
    acp = createAcpHost(new ScriptedPrompter());
    client = await acp.start(fixtureAgent());
  });
  after(() => acp.closeAll());
  beforeEach(() => {
    acp.trusted = true;
    base = realpathSync(mkdtempSync(join(tmpdir(), 'eh-acp-files-')));
    work = join(base, 'work');
    outside = join(base, 'outside');
    mkdirSync(work);
    mkdirSync(outside);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("a repository's dangling link (notes.txt -> ~/.ssh/authorized_keys): the agent's write is refused and creates nothing", async () => {
    const keys = join(outside, '.ssh', 'authorized_keys');
    mkdirSync(dirname(keys));
    symlinkSync(keys, join(work, 'notes.txt'));
    const session = await client.newSession({ cwd: work });
    const [written] = await files(session, [{ write: join(work, 'notes.txt'), text: 'ssh-ed25519 AAAA the-agent' }]);
    assert.ok('error' in written, JSON.stringify(written));
    assert.match(written.error, /^error -32602: Refused to write .*notes\.txt: it is a symbolic link to something that does not exist/);
    assert.deepEqual(readdirSync(dirname(keys)), [], 'authorized_keys was not created');
    assert.ok(acp.log.lines.some((l) => /^warn fixture: Refused to write .*notes\.txt/.test(l)), 'the refusal is logged');
  });

  it('in an untrusted workspace the agent reads no file either (nor writes one)', async () => {
    writeFileSync(join(work, '.env'), 'TOKEN=kept-in-the-repo');
    const session = await client.newSession({ cwd: work });
    acp.trusted = false;
    const [read, written] = await files(session, [{ read: join(work, '.env') }, { write: join(work, 'new.txt'), text: 'x' }]);
    assert.deepEqual(read, { error: `error -32602: Refused to read ${join(work, '.env')}: this workspace is not trusted, and an agent reads and writes no file in it until it is` });
    assert.deepEqual(written, { error: `error -32602: Refused to write ${join(work, 'new.txt')}: this workspace is not trusted, and an agent reads and writes no file in it until it is` });
    assert.deepEqual(readdirSync(work), ['.env']);
    acp.trusted = true;
    assert.deepEqual(await files(session, [{ read: join(work, '.env') }]), [{ content: 'TOKEN=kept-in-the-repo' }]);
  });

  it('a file over 32 MB is refused whole, and its lines asked for come back (line, limit)', async () => {
    const big = join(work, 'big.log');
    writeFileSync(big, Array.from({ length: 2_300_000 }, (_, n) => `line ${String(n + 1).padStart(9, '0')}\n`).join(''));
    const session = await client.newSession({ cwd: work });
    const [whole, some] = await files(session, [{ read: big }, { read: big, line: 2_000_000, limit: 2 }]);
    assert.deepEqual(whole, { error: `error -32602: Refused to read ${big} whole: it is 34,500,000 bytes, over the 32 MB read at once; ask for some of its lines (line and limit)` });
    assert.deepEqual(some, { content: 'line 002000000\nline 002000001' });
  });

  for (const mode of ['file', 'folder'] as const) {
    it(`a helper process swapping ${mode === 'file' ? 'the file' : 'a folder on its way'} for a link out while the agent reads and writes 300 times: nothing outside is read or changed`, async () => {
      // The file inside, and its twin outside where the link leads.
      const inside = mode === 'file' ? join(work, 'target.txt') : join(work, 'src', 'target.txt');
      mkdirSync(dirname(inside), { recursive: true });
      writeFileSync(inside, 'inside');
      writeFileSync(join(outside, 'target.txt'), 'OUTSIDE, NOT YOURS');
      const before = snapshot(base, work);
      const session = await client.newSession({ cwd: work });
      const swapper = await startSwapper(mode, work, mode === 'file' ? 'target.txt' : 'src', mode === 'file' ? join(outside, 'target.txt') : outside);
      let reads: FileResult[];
      let writes: FileResult[];
      try {
        writes = await files(session, Array.from({ length: 300 }, (_, i) => ({ write: inside, text: `from the agent ${i}` })));
        reads = await files(session, Array.from({ length: 300 }, () => ({ read: inside })));
      } finally {
        await stopSwapper(swapper);
      }
      assert.deepEqual(snapshot(base, work), before, 'nothing outside the folder was created or changed');
      const leaked = reads.filter((r) => 'content' in r && r.content.includes('OUTSIDE'));
      assert.deepEqual(leaked, [], 'nothing outside the folder was read');
      // The swaps did happen while the agent worked: some requests met the link and were refused.
      assert.ok(refusals(writes) > 0 && refusals(reads) > 0, `refused: ${refusals(writes)} writes, ${refusals(reads)} reads`);
    });
  }

  it('property: random folders of links inside and outside, random reads and writes: nothing outside is read, created or changed; plain paths inside always work', async () => {
    // The names every run plays with: outside, `work` (the session's), a sibling whose name starts with it.
    const NAMES = ['l0', 'l1', 'l2', 'l3'];
    const PLACES = ['work', 'work', 'work/sub', 'outside', 'work-old'];
    // Links that lead nowhere (yet) come up most: a write through one would create its target.
    const DANGLING = ['outside/missing.txt', 'outside/new-folder', 'outside/new-folder/deeper.txt', 'work-old/missing.txt', 'work/missing.txt'];
    const TARGETS = ['outside', 'outside/secret.txt', 'work-old', 'work-old/a.txt', '.', '..', '../..', 'work', 'work/a.txt', 'work/sub', 'work/sub/b.txt', 'work/l0', 'work/l1', 'work/sub/l2', 'outside/l3'];
    const link = fc.record({
      place: fc.constantFrom(...PLACES),
      name: fc.constantFrom(...NAMES),
      target: fc.oneof(fc.constantFrom(...DANGLING), fc.constantFrom(...TARGETS)),
      relative: fc.boolean(),
    });
    const segment = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NAMES) }, { weight: 2, arbitrary: fc.constantFrom('a.txt', 'sub', 'b.txt', 'new.txt', 'new-folder', '..') });
    const op = fc.record({ write: fc.boolean(), from: fc.constantFrom('work', 'work', 'work', 'work/sub', 'outside', 'work-old'), segments: fc.array(segment, { minLength: 1, maxLength: 3 }) });
    /** A path inside `work` with no link and no `..` on the way, that no other request turns into a folder: it must always work. */
    const plain = fc.record({ write: fc.boolean(), segments: fc.constantFrom(['a.txt'], ['sub', 'b.txt'], ['plain.txt'], ['sub', 'plain.txt'], ['plain-folder', 'deeper', 'c.txt']) });

    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(link, { selector: (l) => `${l.place}/${l.name}`, minLength: 1, maxLength: 12 }), fc.array(fc.oneof({ weight: 4, arbitrary: op }, { weight: 1, arbitrary: plain.map((p) => ({ ...p, from: 'plain' as const })) }), { minLength: 1, maxLength: 20 }), async (links, ops) => {
        const top = realpathSync(mkdtempSync(join(tmpdir(), 'eh-acp-files-prop-')));
        // Two levels down, so that every `..` a request or a link may climb still lands in what is checked.
        const root = join(top, 'up', 'root');
        const at = (name: string): string => join(root, name);
        try {
          for (const folder of ['work/sub', 'outside', 'work-old']) mkdirSync(at(folder), { recursive: true });
          writeFileSync(at('work/a.txt'), 'inside a');
          writeFileSync(at('work/sub/b.txt'), 'inside b');
          writeFileSync(at('outside/secret.txt'), 'OUTSIDE secret');
          writeFileSync(at('work-old/a.txt'), 'OUTSIDE sibling');
          for (const l of links) {
            const target = l.target.startsWith('.') ? l.target : l.relative ? relative(at(l.place), at(l.target)) || '.' : at(l.target);
            symlinkSync(target, join(at(l.place), l.name));
          }
          const work = at('work');
          const before = snapshot(top, work);
          const session = await client.newSession({ cwd: work });
          const asked: FileOp[] = ops.map((o, i) => {
            const path = o.from === 'plain' ? join(work, ...o.segments) : join(at(o.from), ...o.segments);
            return o.write ? { write: path, text: `written ${i}` } : { read: path };
          });
          const results = await files(session, asked);
          assert.deepEqual(snapshot(top, work), before, 'nothing outside the folder was created or changed');
          results.forEach((result, i) => {
            if ('content' in result) assert.ok(!result.content.includes('OUTSIDE'), `${JSON.stringify(asked[i])} read outside: ${result.content}`);
            if (ops[i].from === 'plain' && 'error' in result) {
              // A plain path inside is never refused; reading one not written yet is "not found".
              assert.match(result.error, /^error -32002: /, `${JSON.stringify(asked[i])} failed: ${result.error}`);
            }
          });
        } finally {
          rmSync(top, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });
});
