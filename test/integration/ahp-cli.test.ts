/**
 * `elicitation-host ahp` (the built dist/cli.js) against the fixture agent host, as a CI job
 * would run it: the open questions answered from an answers file, with defaults or by
 * declining; tool calls allowed or denied; a session chosen; --watch answering what comes
 * later; the exit codes of the other commands; the token taken from a file or a variable
 * only, and never printed.
 */
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixtureHost } from '../fixtures/ahp/fixture-host';
import { REPO } from '../support/servers';
import { waitUntil } from '../support/wait';

const CLI = join(REPO, 'dist/cli.js');
const TOKEN = 'cli-s3cret-token';

function start(args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<{ code: number; stdout: string; stderr: string }>; output: () => string } {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is not built: run "node scripts/build.mjs" first (npm run test:integration does it).');
  const child = spawn(process.execPath, [CLI, 'ahp', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
  return { child, done, output: () => stdout };
}

const run = (args: string[], env: Record<string, string> = {}) => start(args, env).done;

describe('elicitation-host ahp', function () {
  this.timeout(60_000);
  let host: FixtureHost;
  let folder: string;
  let tokenFile: string;

  beforeEach(async () => {
    host = await FixtureHost.start({ token: TOKEN });
    folder = mkdtempSync(join(tmpdir(), 'ahp-cli-'));
    tokenFile = join(folder, 'token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
  });
  afterEach(async () => {
    await host.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  function answersFile(data: unknown): string {
    const path = join(folder, 'answers.json');
    writeFileSync(path, JSON.stringify(data));
    return path;
  }

  it('answers the open questions from an answers file and a tool call by its option, then exits 0', async () => {
    const { chat } = host.addSession('release');
    host.requestInput(chat, { id: 'r1', questions: [{ id: 'version', kind: 'text', message: 'Which version?', required: true }] });
    host.requestToolConfirmation(chat, { toolCallId: 'tc1', toolName: 'Bash', toolInput: 'npm publish' });
    const answers = answersFile([{ action: 'accept', content: { version: '1.2.3' } }, { action: 'accept', content: { decision: 'approve' } }]);
    const { code, stdout, stderr } = await run(['--url', host.url, '--token-file', tokenFile, '--answers', answers]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^connected to the agent host at ws:\/\/127\.0\.0\.1:\d+ \(AHP 0\.9\.0\)\n/);
    assert.match(stdout, /\? Claude \(127\.0\.0\.1:\d+\), for session 'release': Which version\?/);
    assert.match(stdout, /→ accept \{"version":"1\.2\.3"\}/);
    assert.match(stdout, /npm publish/);
    assert.match(stdout, /tool call tc1: approved/);
    const completed = host.clientActions.find((e) => e.action.type === 'chat/inputCompleted');
    assert.deepEqual(completed?.action.answers, { version: { state: 'submitted', value: { kind: 'text', value: '1.2.3' } } });
    assert.equal(host.clientActions.find((e) => e.action.type === 'chat/toolCallConfirmed')?.action.approved, true);
    assert.doesNotMatch(stdout + stderr, new RegExp(TOKEN));
    assert.deepEqual(host.rejections, []);
  });

  it('--accept-defaults denies a tool call (its default) and exits 4; a required question without a default exits 3', async () => {
    const { chat } = host.addSession();
    host.requestToolConfirmation(chat, { toolCallId: 'tc2', toolName: 'Bash', toolInput: 'rm -rf build' });
    const denied = await run(['--url', host.url, '--token-env', 'AHP_TOKEN', '--accept-defaults'], { AHP_TOKEN: TOKEN });
    assert.equal(denied.code, 4, denied.stderr);
    assert.equal(host.clientActions.find((e) => e.action.type === 'chat/toolCallConfirmed')?.action.approved, false);
    host.endTurn(chat);
    host.requestInput(chat, { id: 'r2', questions: [{ id: 'name', kind: 'text', message: 'Name?', required: true }] });
    const unanswered = await run(['--url', host.url, '--token-env', 'AHP_TOKEN', '--accept-defaults', '--json'], { AHP_TOKEN: TOKEN });
    assert.equal(unanswered.code, 3, unanswered.stderr);
    const lines = unanswered.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[0], { type: 'connected', host: host.url, protocolVersion: '0.9.0' });
    assert.ok(lines.some((l) => l.type === 'answer' && l.action === 'cancel'), unanswered.stdout);
    assert.equal(host.clientActions.find((e) => e.action.type === 'chat/inputCompleted' && e.action.requestId === 'r2')?.action.response, 'cancel');
  });

  it('--decline, only the session asked for; nothing waiting is said', async () => {
    const first = host.addSession('first');
    const second = host.addSession('second');
    host.requestInput(first.chat, { id: 'a', questions: [{ id: 'q', kind: 'boolean', message: 'Go?' }] });
    host.requestInput(second.chat, { id: 'b', questions: [{ id: 'q', kind: 'boolean', message: 'Go?' }] });
    const { code, stdout } = await run(['--url', host.url, '--token-file', tokenFile, '--decline', '--session', second.session.split('/').pop()!]);
    assert.equal(code, 0);
    assert.match(stdout, /for session 'second'/);
    assert.doesNotMatch(stdout, /for session 'first'/);
    assert.deepEqual(host.clientActions.map((e) => [e.action.requestId, e.action.response]), [['b', 'decline']]);
    const empty = await run(['--url', host.url, '--token-file', tokenFile, '--decline', '--session', 'no-such-session']);
    assert.equal(empty.code, 0);
    assert.match(empty.stdout, /no question is waiting/);
  });

  it('--watch answers what comes later, until SIGINT', async () => {
    const { chat } = host.addSession('watched');
    const watch = start(['--url', host.url, '--token-file', tokenFile, '--decline', '--watch']);
    await waitUntil('the runner to connect', () => /connected to the agent host/.test(watch.output()));
    host.requestInput(chat, { id: 'later', questions: [{ id: 'q', kind: 'text', message: 'Later?' }] });
    await host.waitForClientAction((e) => e.action.requestId === 'later');
    watch.child.kill('SIGINT');
    const { code, stdout } = await watch.done;
    assert.equal(code, 0);
    assert.match(stdout, /Later\?/);
    assert.match(stdout, /→ decline/);
  });

  it('refuses the token on the command line, names a refused token and an unreachable host, and never prints a token', async () => {
    const inUrl = await run(['--url', `${host.url}?tkn=${TOKEN}`, '--decline']);
    assert.equal(inUrl.code, 1);
    assert.match(inUrl.stderr, /the URL carries the token \(\?tkn=\)/);
    const flag = await run(['--url', host.url, `--token=${TOKEN}`]);
    assert.equal(flag.code, 1);
    assert.match(flag.stderr, /the token is not taken on the command line/);
    const wrong = await run(['--url', host.url, '--token-env', 'AHP_TOKEN', '--decline'], { AHP_TOKEN: 'not-the-token' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /refused the connection token \(HTTP 403\)/);
    const remote = await run(['--url', 'ws://10.1.2.3:8123', '--decline']);
    assert.equal(remote.code, 1);
    assert.match(remote.stderr, /ws:\/\/ is unencrypted and only allowed to this machine/);
    const url = host.url;
    await host.stop();
    host = await FixtureHost.start({ token: TOKEN });
    const gone = await run(['--url', url, '--token-file', tokenFile, '--decline']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /cannot reach the agent host at ws:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
    for (const r of [inUrl, flag, wrong, remote, gone]) assert.doesNotMatch(r.stdout + r.stderr, new RegExp(TOKEN));
  });

  it('prints a host\'s text as text: escape sequences and bidi controls do not reach the terminal', async () => {
    const { chat } = host.addSession('\u001b]0;pwned\u0007title');
    host.requestInput(chat, { id: 'h', message: 'Red \u001b[31malert\u001b[0m \u202eevil', questions: [{ id: 'q', kind: 'boolean', message: 'ok?' }] });
    const { code, stdout } = await run(['--url', host.url, '--token-file', tokenFile, '--decline']);
    assert.equal(code, 0);
    assert.match(stdout, /Red \[31malert\[0m evil/, 'the controls are gone, the rest is plain text');
    // eslint-disable-next-line no-control-regex -- these characters are what the test looks for
    assert.doesNotMatch(stdout, /\u001b|\u202e|\u0007/);
  });
});
