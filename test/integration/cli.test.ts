/**
 * The headless runner, as a server author would use it in CI: the built dist/cli.js
 * against the fixture servers over stdio and HTTP.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, type HttpFixture, REPO, requireFixtures, startHttpFixture } from '../support/servers';

const CLI = join(REPO, 'dist/cli.js');
const STDIO = ['--', process.execPath, join(FIXTURES, 'stdio.js')];
const dir = mkdtempSync(join(tmpdir(), 'eh-cli-'));

function answers(name: string, results: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(results));
  return file;
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  requireFixtures();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

function toolOutput(lines: Array<Record<string, unknown>>, tool: string): unknown {
  const result = lines.find((l) => l.type === 'result' && l.tool === tool)?.result as { content: Array<{ text: string }> };
  return JSON.parse(result.content[0].text);
}

describe('command line runner', () => {
  let http: HttpFixture;
  before(async () => {
    http = await startHttpFixture();
  });
  after(async () => {
    await http.stop();
  });

  it('call over stdio with --answers prints the elicitation, the answer and the booking result', async () => {
    const file = answers('book.json', [{ action: 'accept', content: { party_size: 4, date: '2026-12-24', dietary: 'vegan' } }]);
    const { code, stdout } = await run(['call', '--answers', file, '--args', '{"restaurant":"Chez CLI"}', 'book_restaurant', ...STDIO]);
    assert.equal(code, 0);
    assert.match(stdout, /\? stdio\.js \(book_restaurant\): Please provide your reservation details for Chez CLI:/);
    assert.match(stdout, /- party_size \(integer, required, default 2\)/);
    assert.match(stdout, /→ accept \{"party_size":4,"date":"2026-12-24","dietary":"vegan"\}/);
    assert.match(stdout, /✓ book_restaurant: \{"action":"accept","content":\{"party_size":4,"date":"2026-12-24","dietary":"vegan"\}\}/);
  });

  it('call over Streamable HTTP with --json: one JSON line per event, and defaults for fields the answer leaves out', async () => {
    const file = answers('partial.json', [{ action: 'accept', content: { date: '2027-02-01' } }]);
    const { code, stdout } = await run(['call', '--json', '--answers', file, `http://127.0.0.1:${http.port}/mcp`, 'book_restaurant']);
    assert.equal(code, 0);
    const lines = jsonLines(stdout);
    assert.deepEqual(lines.map((l) => l.type), ['call', 'elicitation', 'answer', 'result']);
    assert.deepEqual(toolOutput(lines, 'book_restaurant'), { action: 'accept', content: { party_size: 2, date: '2027-02-01', dietary: 'none' } });
  });

  it('--decline and --accept-defaults', async () => {
    const declined = jsonLines((await run(['call', '--json', '--decline', 'clear_completed', ...STDIO])).stdout);
    assert.deepEqual(toolOutput(declined, 'clear_completed'), { action: 'decline', removed: 0 });
    const accepted = jsonLines((await run(['call', '--json', '--accept-defaults', 'pick_instruments', ...STDIO])).stdout);
    assert.deepEqual(toolOutput(accepted, 'pick_instruments'), { action: 'accept', content: { instruments: ['piano', 'bass'] } });
  });

  it('--accept-defaults refuses, with a message, a form whose required fields have no default', async () => {
    const { code, stdout, stderr } = await run(['call', '--accept-defaults', 'book_restaurant', ...STDIO]);
    assert.equal(code, 0);
    assert.match(stderr, /--accept-defaults cannot answer: date is required and has no default; cancelling/);
    assert.match(stdout, /✓ book_restaurant: \{"action":"cancel"\}/);
  });

  it('an answer the form refuses is reported, not sent', async () => {
    const file = answers('bad.json', [{ action: 'accept', content: { party_size: 99, date: '2026-12-24' } }]);
    const { stdout, stderr } = await run(['call', '--answers', file, 'book_restaurant', ...STDIO]);
    assert.match(stderr, /the answer was refused: Party Size must be between 1 and 20/);
    assert.match(stdout, /✓ book_restaurant: \{"action":"cancel"\}/);
  });

  it('URL elicitations print the URL and are declined unless the answers file accepts them', async () => {
    const declined = await run(['call', '--decline', 'open_review', ...STDIO]);
    assert.match(declined.stdout, /asks you to open https:\/\/example\.com\/review\/42 \[site: example\.com\]/);
    assert.match(declined.stdout, /✓ open_review: \{"action":"decline"\}/);
    const file = answers('url.json', [{ action: 'accept' }]);
    assert.match((await run(['call', '--answers', file, 'open_review', ...STDIO])).stdout, /✓ open_review: \{"action":"accept"\}/);
  });

  it('call-all calls every listed tool in order, filling arguments from defaults', async () => {
    const file = answers('all.json', [{ action: 'accept', content: { confirm: true } }, { action: 'decline' }]);
    const { code, stdout } = await run(['call-all', '--json', '--answers', file, '--', process.execPath, join(FIXTURES, 'stdio.js'), '--only', 'confirm_action,echo,clear_completed']);
    assert.equal(code, 0);
    const lines = jsonLines(stdout);
    assert.deepEqual(lines.filter((l) => l.type === 'call').map((l) => [l.tool, l.arguments]), [
      ['confirm_action', { action: 'the action' }],
      ['clear_completed', { count: 5 }],
      ['echo', { text: 'hello' }],
    ]);
    assert.deepEqual(toolOutput(lines, 'confirm_action'), { action: 'accept', content: { confirm: true } });
    assert.deepEqual(toolOutput(lines, 'clear_completed'), { action: 'decline', removed: 0 });
  });

  it('exit code 2 when a tool returns isError', async () => {
    const { code, stdout } = await run(['call', 'fail', ...STDIO]);
    assert.equal(code, 2);
    assert.match(stdout, /✗ fail \(isError\): it failed on purpose/);
  });

  it('exit code 1 with a clear message on a connection failure, a missing tool or bad usage', async () => {
    const gone = await run(['call', 'http://127.0.0.1:9/mcp', 'echo']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /error: .*fetch failed/);
    const missing = await run(['call', 'nope', ...STDIO]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /the server has no tool "nope"/);
    const usage = await run(['call', '--frobnicate', 'x', ...STDIO]);
    assert.equal(usage.code, 1);
    assert.match(usage.stderr, /unknown option --frobnicate/);
  });

  it('without a terminal or answers, an elicitation is cancelled with a message saying how to answer', async () => {
    const { stderr, stdout } = await run(['call', 'clear_completed', ...STDIO]);
    assert.match(stderr, /no terminal to ask in: use --answers FILE, --accept-defaults or --decline/);
    assert.match(stdout, /\{"action":"cancel","removed":0\}/);
  });
});
