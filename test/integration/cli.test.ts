/**
 * The headless runner, as a server author would use it in CI: the built dist/cli.js
 * against the fixture servers over stdio and HTTP.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TERMINAL_TRICKS } from '../fixtures/servers/client-probes';
import { CLI, type Finished, runCli } from '../support/cli-run';
import { FIXTURES, type HttpFixture, requireFixtures, startHttpFixture } from '../support/servers';
import { runInTerminal as runTerminal, shown, type TerminalRun, type TerminalStep } from '../support/terminal';

const STDIO = ['--', process.execPath, join(FIXTURES, 'stdio.js')];
const dir = mkdtempSync(join(tmpdir(), 'eh-cli-'));

function answers(name: string, results: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(results));
  return file;
}

function run(args: string[], cwd?: string): Promise<Finished> {
  requireFixtures();
  return runCli(args, { ...(cwd && { cwd }) });
}

/** The runner in a pseudo-terminal (test/support/terminal.ts), so it asks on the console. */
function runInTerminal(args: string[], steps: TerminalStep[]): Promise<TerminalRun> {
  requireFixtures();
  return runTerminal([process.execPath, CLI, ...args], steps);
}

/** Characters a terminal acts on or hides: C0 controls but tab and line feed, DEL, C1 controls, bidi and zero-width characters. */
// eslint-disable-next-line no-control-regex -- these characters are what the tests look for
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** What a terminal shows of TERMINAL_TRICKS once the control and invisible characters are gone. */
const TRICKS_AS_TEXT = '[2J[31mred[0m ]8;;https://evil.example/link]8;; 1Acsi gnp.exe zero bell backspace crreturn';

/** The ask_schema tool's arguments. */
function askSchema(schema: object): string {
  return JSON.stringify({ schema: JSON.stringify(schema) });
}

const PROTO_SCHEMA = '{"type":"object","properties":{"__proto__":{"type":"string","title":"Proto"}},"required":["__proto__"]}';

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
    assert.match(stdout, /\? stdio\.js · book_restaurant: Please provide your reservation details for Chez CLI:/);
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

  it('--accept-defaults refuses, with a message and exit code 3, a form whose required fields have no default', async () => {
    const { code, stdout, stderr } = await run(['call', '--accept-defaults', 'book_restaurant', ...STDIO]);
    assert.equal(code, 3);
    assert.match(stderr, /--accept-defaults cannot answer: date is required and has no default; cancelling/);
    assert.match(stdout, /→ cancel \(--accept-defaults cannot answer: date is required and has no default\)/);
    assert.match(stdout, /✓ book_restaurant: \{"action":"cancel"\}/);
  });

  it('an answer the form refuses is reported, not sent, and the run exits 3', async () => {
    const file = answers('bad.json', [{ action: 'accept', content: { party_size: 99, date: '2026-12-24' } }]);
    const { code, stdout, stderr } = await run(['call', '--answers', file, 'book_restaurant', ...STDIO]);
    assert.equal(code, 3);
    assert.match(stderr, /the answer was refused: Party Size must be between 1 and 20/);
    assert.match(stdout, /✓ book_restaurant: \{"action":"cancel"\}/);
  });

  it('when the answers file runs out, a link is declined and a form cancelled; the form makes the run exit 3, over an isError result', async () => {
    const empty = answers('empty.json', []);
    const link = await run(['call', '--json', '--answers', empty, 'open_review', ...STDIO]);
    assert.equal(link.code, 0);
    const lines = jsonLines(link.stdout);
    assert.deepEqual(lines.find((l) => l.type === 'answer'), {
      type: 'answer', action: 'decline', reason: 'the answers file has no answer #1; links are declined unless an --answers file accepts them', request: lines.find((l) => l.type === 'answer')?.request,
    });
    assert.deepEqual(toolOutput(lines, 'open_review'), { action: 'decline' });

    const form = await run(['call-all', '--answers', empty, '--', process.execPath, join(FIXTURES, 'stdio.js'), '--only', 'confirm_action,fail']);
    assert.equal(form.code, 3, 'an unanswered form outranks a tool that returned isError');
    assert.match(form.stderr, /the answers file has no answer #1; cancelling/);
    assert.match(form.stdout, /→ cancel \(the answers file has no answer #1\)\n✓ confirm_action: \{"action":"cancel"\}/);
    assert.match(form.stdout, /✗ fail \(isError\): it failed on purpose/);
  });

  it('URL elicitations print the URL and are declined unless the answers file accepts them', async () => {
    const declined = await run(['call', '--decline', 'open_review', ...STDIO]);
    assert.match(declined.stdout, /asks you to open https:\/\/example\.com\/review\/42 \[site: example\.com\]/);
    assert.match(declined.stdout, /✓ open_review: \{"action":"decline"\}/);
    const withDefaults = await run(['call', '--accept-defaults', 'open_review', ...STDIO]);
    assert.equal(withDefaults.code, 0);
    assert.match(withDefaults.stdout, /→ decline \(--accept-defaults does not open links; links are declined unless an --answers file accepts them\)/);
    const file = answers('url.json', [{ action: 'accept' }]);
    assert.match((await run(['call', '--answers', file, 'open_review', ...STDIO])).stdout, /✓ open_review: \{"action":"accept"\}/);
  });

  it('a link the host will not open is printed and declined without using an answer', async () => {
    const file = answers('hostile.json', [{ action: 'accept' }]);
    const { code, stdout } = await run(['call', '--answers', file, 'hostile_link', ...STDIO]);
    assert.equal(code, 0);
    assert.match(stdout, /\? stdio\.js · hostile_link asks you to open javascript:alert\(document\.cookie\) \[refused: links with the scheme "javascript:" are not opened/);
    assert.match(stdout, /→ decline \(the link was refused unopened\)\n✓ hostile_link: \{"action":"decline"\}/);
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

  it('call-all over Streamable HTTP calls every listed tool in order and answers each question', async () => {
    const server = await startHttpFixture(['--only', 'book_restaurant,echo,open_review']);
    try {
      const file = answers('http-all.json', [{ action: 'accept', content: { date: '2027-03-01', party_size: 3 } }, { action: 'accept' }]);
      const { code, stdout } = await run(['call-all', '--json', '--answers', file, `http://127.0.0.1:${server.port}/mcp`]);
      assert.equal(code, 0);
      const lines = jsonLines(stdout);
      const event = (l: Record<string, unknown>): string =>
        l.type === 'elicitation' ? `elicitation ${String(l.mode)}` : l.type === 'answer' ? `answer ${String(l.action)}` : l.type === 'waiting' ? 'waiting' : `${String(l.type)} ${String(l.tool)}`;
      assert.deepEqual(lines.map(event), [
        'call book_restaurant', 'elicitation form', 'answer accept', 'result book_restaurant',
        'call echo', 'result echo',
        'call open_review', 'elicitation url', 'answer accept', 'result open_review',
      ]);
      assert.deepEqual(toolOutput(lines, 'book_restaurant'), { action: 'accept', content: { party_size: 3, date: '2027-03-01', dietary: 'none' } });
      assert.deepEqual(toolOutput(lines, 'echo'), { echo: 'hello' });
      assert.deepEqual(toolOutput(lines, 'open_review'), { action: 'accept' });
    } finally {
      await server.stop();
    }
  });

  it('call-all goes on after a tool fails, prints every outcome, and exits with the most serious (1 over 2)', async () => {
    const server = await startHttpFixture(['--only', 'fail,needs_authorization,read_env']);
    try {
      // The link is accepted, but with failTwice the server answers the retry with -32042 again: the call fails.
      const file = answers('fails.json', [{ action: 'accept' }]);
      const { code, stdout } = await run(['call-all', '--json', '--answers', file, '--args', '{"failTwice":true,"name":"ELICITATION_HOST_CLI_TEST"}', `http://127.0.0.1:${server.port}/mcp`]);
      assert.equal(code, 1);
      const lines = jsonLines(stdout);
      assert.deepEqual(lines.filter((l) => l.type === 'call').map((l) => l.tool), ['fail', 'needs_authorization', 'read_env']);
      assert.equal(lines.find((l) => l.type === 'result' && l.tool === 'fail')?.isError, true);
      const failure = lines.find((l) => l.type === 'error' && l.tool === 'needs_authorization');
      assert.equal(failure?.code, -32042);
      assert.match(String(failure?.message), /^needs_authorization failed: .* still requires a link to be visited for needs_authorization \(Authorization required\); not retrying again$/);
      assert.deepEqual(toolOutput(lines, 'read_env'), { name: 'ELICITATION_HOST_CLI_TEST', value: null, cwd: process.cwd() });
    } finally {
      await server.stop();
    }
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

  it('exit code 1 on a protocol error: a question the client refuses, though the tool then returns a result', async () => {
    const { code, stdout, stderr } = await run(['call', 'invalid_schema', ...STDIO]);
    assert.equal(code, 1);
    assert.match(stderr, /error: stdio\.js · invalid_schema sent a question this client refused \(-32602\): Invalid elicitation schema: properties\.address: nested objects are not allowed/);
    assert.match(stdout, /✓ invalid_schema: \{"error":\{"code":-32602/);
  });

  it('without a terminal or an answering option, every question and its answer are printed: a form is cancelled (exit 3), a link declined, both saying which option to pass', async () => {
    const form = await run(['call', 'clear_completed', ...STDIO]);
    assert.equal(form.code, 3);
    assert.match(form.stderr, /there is no terminal to ask in: use --answers FILE, --accept-defaults or --decline; cancelling/);
    assert.match(form.stdout, /\? stdio\.js · Clear completed todos: Remove 5 completed todos\? This cannot be undone\./);
    assert.match(form.stdout, /→ cancel \(there is no terminal to ask in: use --answers FILE, --accept-defaults or --decline\)/);
    assert.match(form.stdout, /\{"action":"cancel","removed":0\}/);

    const link = await run(['call', 'open_review', ...STDIO]);
    assert.equal(link.code, 0);
    assert.match(link.stdout, /asks you to open https:\/\/example\.com\/review\/42/);
    assert.match(link.stdout, /→ decline \(there is no terminal to ask in: use --answers FILE, --accept-defaults or --decline; links are declined unless an --answers file accepts them\)/);
    assert.match(link.stdout, /✓ open_review: \{"action":"decline"\}/);
  });

  it('option values after "=": --args={...} and --answers=FILE', async () => {
    const file = answers('equals.json', [{ action: 'accept', content: { date: '2026-12-24' } }]);
    const { code, stdout, stderr } = await run(['call', '--json', `--answers=${file}`, '--args={"restaurant":"Chez Equals"}', 'book_restaurant', ...STDIO]);
    assert.equal(code, 0, stderr);
    const lines = jsonLines(stdout);
    assert.deepEqual(lines[0], { type: 'call', tool: 'book_restaurant', arguments: { restaurant: 'Chez Equals' } });
    assert.deepEqual(toolOutput(lines, 'book_restaurant'), { action: 'accept', content: { party_size: 2, date: '2026-12-24', dietary: 'none' } });
    const missing = await run(['call', 'book_restaurant', '--answers']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: --answers needs a value\n/);
  });

  it('server text reaches the terminal without control or invisible characters: who asks, questions, results, errors, stderr', async () => {
    const file = answers('tricks.json', [{ action: 'accept', content: { choice: 'a' } }]);
    const { code, stdout, stderr } = await run(['call', '--answers', file, 'terminal_tricks', ...STDIO]);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stdout, UNSAFE);
    assert.doesNotMatch(stderr, UNSAFE);
    // Still readable as text: only the characters are gone.
    assert.ok(stdout.includes(`? stdio.js · Tricks ${TRICKS_AS_TEXT}: Question ${TRICKS_AS_TEXT}\n`), stdout);
    assert.ok(stdout.includes(`one of a|b ${TRICKS_AS_TEXT})`), stdout);
    assert.ok(stdout.includes(`✓ terminal_tricks: Result ${TRICKS_AS_TEXT}\n`), stdout);
    assert.ok(stderr.includes(`[server] stderr ${TRICKS_AS_TEXT}\n`), stderr);

    // An error message that quotes the server: a refused schema names its property.
    const refused = await run(['call', '--decline', '--args', askSchema({ type: 'object', properties: { [`addr${TERMINAL_TRICKS}`]: { type: 'object' } } }), 'ask_schema', ...STDIO]);
    assert.equal(refused.code, 1);
    assert.doesNotMatch(refused.stderr, UNSAFE);
    assert.ok(refused.stderr.includes(`error: stdio.js · ask_schema sent a question this client refused (-32602): Invalid elicitation schema: properties.addr${TRICKS_AS_TEXT}`), refused.stderr);
  });

  it('--json keeps server text exact, with control and invisible characters escaped', async () => {
    const file = answers('tricks-json.json', [{ action: 'accept', content: { choice: `b ${TERMINAL_TRICKS}` } }]);
    const { code, stdout, stderr } = await run(['call', '--json', '--answers', file, 'terminal_tricks', ...STDIO]);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stdout, UNSAFE);
    const lines = jsonLines(stdout);
    const question = lines.find((l) => l.type === 'elicitation');
    assert.equal(question?.message, `Question ${TERMINAL_TRICKS}`);
    assert.equal(question?.tool, `Tricks ${TERMINAL_TRICKS}`);
    assert.deepEqual(lines.find((l) => l.type === 'answer')?.content, { choice: `b ${TERMINAL_TRICKS}` });
    const result = lines.find((l) => l.type === 'result')?.result as { content: Array<{ text: string }> };
    assert.equal(result.content[0].text, `Result ${TERMINAL_TRICKS}`);
    assert.deepEqual(JSON.parse(result.content[1].text), { action: 'accept', content: { choice: `b ${TERMINAL_TRICKS}` } });
  });

  it('the root it sends is the working directory as a file URL, whatever characters its path has', async () => {
    const cwd = join(dir, 'a dir #1 %20 ü');
    mkdirSync(cwd, { recursive: true });
    const { code, stdout, stderr } = await run(['call', '--json', 'watch_roots', ...STDIO], cwd);
    assert.equal(code, 0, stderr);
    const { roots } = toolOutput(jsonLines(stdout), 'watch_roots') as { roots: Array<{ uri: string; name: string }> };
    assert.deepEqual(roots, [{ uri: pathToFileURL(cwd).href, name: 'cwd' }]);
    assert.equal(fileURLToPath(roots[0].uri), cwd);
  });

  it('an answer to a field named __proto__ reaches the server as that field; one the form does not ask for is refused by name', async () => {
    const file = answers('proto.json', [{ action: 'accept', content: JSON.parse('{"__proto__":"x"}') as unknown }]);
    const { code, stdout, stderr } = await run(['call', '--answers', file, '--args', askSchema(JSON.parse(PROTO_SCHEMA) as object), 'ask_schema', ...STDIO]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /→ accept \{"__proto__":"x"\}\n/);
    const sent = /✓ ask_schema: (.*)\n/.exec(stdout)?.[1];
    // JSON.parse keeps "__proto__" as an own property, as the server's wire reader does.
    const received = (JSON.parse(sent ?? 'null') as { received: { content: object } }).received;
    assert.deepEqual(Object.keys(received.content), ['__proto__']);
    assert.equal(JSON.stringify(received), '{"action":"accept","content":{"__proto__":"x"}}');

    const stray = answers('proto-stray.json', [{ action: 'accept', content: JSON.parse('{"__proto__":{"polluted":true},"name":"n"}') as unknown }]);
    const other = await run(['call', '--answers', stray, '--args', askSchema({ type: 'object', properties: { name: { type: 'string' } } }), 'ask_schema', ...STDIO]);
    assert.equal(other.code, 0, other.stderr);
    assert.match(other.stderr, /error: the answer gives "__proto__", which the form does not ask for; ignored/);
    assert.match(other.stdout, /"received":\{"action":"accept","content":\{"name":"n"\}\}/);
  });

  it('answers to fields that look secret are printed as ******** (with --json too); the server gets the value', async () => {
    const token = 'sk-live-0123456789';
    const sha256 = createHash('sha256').update(token).digest('hex');
    const file = answers('secret.json', [{ action: 'accept', content: { api_token: token } }]);
    const human = await run(['call', '--answers', file, 'ask_secret', ...STDIO]);
    assert.equal(human.code, 0, human.stderr);
    assert.ok(!human.stdout.includes(token) && !human.stderr.includes(token), human.stdout);
    assert.match(human.stdout, /- api_token \(text, required, looks secret: hidden as you type\)\n→ accept \{"api_token":"\*{8}"\}\n/);
    const json = await run(['call', '--json', '--answers', file, 'ask_secret', ...STDIO]);
    assert.ok(!json.stdout.includes(token), json.stdout);
    const lines = jsonLines(json.stdout);
    assert.deepEqual(lines.find((l) => l.type === 'answer'), { type: 'answer', action: 'accept', content: { api_token: '********' }, hidden: ['api_token'], request: lines.find((l) => l.type === 'answer')?.request });
    assert.deepEqual(toolOutput(lines, 'ask_secret'), { action: 'accept', sha256 });
  });

  it('in a terminal, asks each field on the console, asks a value out of range again, and sends the answers', async () => {
    const { code, output } = await runInTerminal(['call', '--args', '{"restaurant":"Chez TTY"}', 'book_restaurant', ...STDIO], [
      { prompt: /Party Size \(Number of guests in your party\) \[2\]: $/, keys: '99\r' },
      { prompt: /Party Size must be between 1 and 20\n {2}Party Size \(Number of guests in your party\) \[2\]: $/, keys: '4\r' },
      { prompt: /Reservation Date \(Preferred date for your reservation\): $/, keys: '2026-12-24\r' },
      // Enter takes the default.
      { prompt: /Dietary Restrictions .*\[none\]: $/, keys: '\r' },
      { prompt: /\(a\)ccept — send, \(d\)ecline, \(c\)ancel\? $/, keys: 'a\r' },
    ]);
    assert.equal(code, 0, output);
    assert.match(output, /\? stdio\.js · book_restaurant: Please provide your reservation details for Chez TTY:/);
    assert.match(output, /→ accept \{"party_size":4,"date":"2026-12-24","dietary":"none"\}/);
    assert.match(output, /✓ book_restaurant: \{"action":"accept","content":\{"party_size":4,"date":"2026-12-24","dietary":"none"\}\}/);
  });

  it('in a terminal, what is typed into a secret-looking field is not shown, nor printed afterwards', async () => {
    const token = 'hunter2-secret';
    const { code, raw } = await runInTerminal(['call', 'ask_secret', ...STDIO], [
      { prompt: /API token[^\n]*: $/, keys: 'hid\r' },
      { prompt: /API token must be at least 4 characters\n {2}API token[^\n]*: $/, keys: `${token}\r` },
      { prompt: /\(a\)ccept — send, \(d\)ecline, \(c\)ancel\? $/, keys: 'a\r' },
    ]);
    assert.equal(code, 0, raw);
    assert.ok(!raw.includes(token) && !raw.includes('hid\r') && !raw.includes('hid\n'), raw);
    assert.match(shown(raw), /API token \(hidden as you type\): \n/);
    assert.match(shown(raw), /→ accept \{"api_token":"\*{8}"\}/);
    assert.ok(shown(raw).includes(`✓ ask_secret: {"action":"accept","sha256":"${createHash('sha256').update(token).digest('hex')}"}`), raw);
  });

  it('in a terminal, prompts carry server text without control or invisible characters', async () => {
    const { code, raw, output } = await runInTerminal(['call', 'terminal_tricks', ...STDIO], [
      { prompt: /\(Say .*\): $/, keys: 'a\r' },
      { prompt: /\(a\)ccept — send, \(d\)ecline, \(c\)ancel\? $/, keys: 'a\r' },
    ]);
    assert.equal(code, 0, raw);
    // The runner's own readline moves the cursor (ESC [ n G and the like); nothing else may reach the terminal.
    // eslint-disable-next-line no-control-regex -- the sequences readline writes are what is taken out
    assert.doesNotMatch(raw.replace(/\x1b\[[0-9]*[GJK]/g, '').replace(/\r/g, ''), UNSAFE);
    assert.ok(output.includes(`Choice ${TRICKS_AS_TEXT} (Say ${TRICKS_AS_TEXT}): `), output);
  });

  it('in a terminal, an answer to a field named __proto__ is sent as that field', async () => {
    const { code, output } = await runInTerminal(['call', '--args', askSchema(JSON.parse(PROTO_SCHEMA) as object), 'ask_schema', ...STDIO], [
      { prompt: /Proto: $/, keys: 'typed\r' },
      { prompt: /\(a\)ccept — send, \(d\)ecline, \(c\)ancel\? $/, keys: 'a\r' },
    ]);
    assert.equal(code, 0, output);
    assert.match(output, /→ accept \{"__proto__":"typed"\}/);
    assert.match(output, /"received":\{"action":"accept","content":\{"__proto__":"typed"\}\}/);
  });

  it('in a terminal, Ctrl+D at a prompt cancels the question', async () => {
    const { code, output } = await runInTerminal(['call', 'clear_completed', ...STDIO], [
      { prompt: /\(a\)ccept — send, \(d\)ecline, \(c\)ancel\? $/, keys: '\x04' },
    ]);
    assert.equal(code, 0, output);
    assert.match(output, /→ cancel \(Aborted with Ctrl\+D\)/);
    assert.match(output, /✓ clear_completed: \{"action":"cancel","removed":0\}/);
  });
});
