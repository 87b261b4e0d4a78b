/**
 * `elicitation-host acp-proxy` (the built dist/cli.js) between a fixture ACP client that
 * offers no elicitation (test/fixtures/acp/fixture-client.ts, written with the SDK) and the
 * fixture agent or claude-agent-acp with a fake model: the client gets the agent's reply
 * while the agent's question was answered by us, in a gateway the test starts (as a VS Code
 * window's terminal would reach it) by a scripted person, on the terminal (a pseudo-terminal),
 * or from an answers file.
 */
import { strict as assert } from 'node:assert';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeAnthropic, startFakeAnthropic } from '../fixtures/acp/fake-anthropic';
import { claudeAgent, colourAndBuildModel, fixtureAgent, workFolder } from '../support/acp-harness';
import { CLI } from '../support/cli-run';
import { gatewaysPerTest, TOKEN } from '../support/gateway-harness';
import { accept, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { FIXTURES } from '../support/servers';
import { runInTerminal } from '../support/terminal';
import { waitUntil, waitUntilGone } from '../support/wait';

const CLIENT = join(FIXTURES, 'acp-client.js');

type Line = Record<string, unknown>;

interface ClientRun {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Line[];
  stderr: string;
  readonly done: Promise<number>;
}

/** The environment without a window, plus `extra` (a window's variables, an agent's own). */
function environment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ELICITATION_HOST_MCP_URL;
  delete env.ELICITATION_HOST_MCP_TOKEN;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

function agentCommand(definition: { command: string; args: readonly string[] }): string[] {
  return [definition.command, ...definition.args];
}

/** The fixture client, starting the proxy, which starts the agent; detached, so no terminal is theirs. */
function startClient(clientArgs: string[], proxyArgs: string[], agent: string[], env: NodeJS.ProcessEnv, cwd: string): ClientRun {
  for (const built of [CLI, CLIENT]) if (!existsSync(built)) throw new Error(`${built} is not built: run "node scripts/build.mjs" first (npm run test:integration does it).`);
  const child = spawn(process.execPath, [CLIENT, ...clientArgs, '--', process.execPath, CLI, 'acp-proxy', ...proxyArgs, '--', ...agent], { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const run: ClientRun = {
    child,
    lines: [],
    stderr: '',
    done: new Promise((resolve) => child.on('close', (code) => resolve(code ?? -1))),
  };
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') run.lines.push(JSON.parse(part) as Line);
  });
  child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

function turns(run: ClientRun): Line[] {
  return run.lines.filter((l) => l.type === 'turn');
}

describe('ACP: elicitation-host acp-proxy', function () {
  this.timeout(120_000);
  const gateways = gatewaysPerTest();
  const fixture = agentCommand(fixtureAgent());

  async function window(prompter: ScriptedPrompter) {
    const harness = await gateways.start(prompter, []);
    return { harness, env: environment({ ELICITATION_HOST_MCP_URL: harness.gateway.url, ELICITATION_HOST_MCP_TOKEN: TOKEN }) };
  }

  it('answers the agent\'s form in the window for a client that offers no elicitation, and the client gets the reply', async () => {
    const prompter = new ScriptedPrompter([accept({ colour: 'blue', initials: 'XY' })]);
    const { env } = await window(prompter);
    const run = startClient(['--prompt', 'hello', '--prompt', 'form'], [], fixture, env, workFolder());
    assert.equal(await run.done, 0, run.stderr);
    const [hello, form] = turns(run);
    // The agent was offered form and url; the rest of what the client offered reached it as sent.
    assert.match(String(hello.reply), /client: \{"fs":\{"readTextFile":false,"writeTextFile":false\},"terminal":false,"auth":\{"terminal":false\},"elicitation":\{"form":\{\},"url":\{\}\}\}/);
    assert.deepEqual(form, { type: 'turn', prompt: 'form', reply: 'form: {"action":"accept","content":{"colour":"blue","initials":"XY"}}', stopReason: 'end_turn' });
    assert.equal(run.lines.filter((l) => l.type === 'elicitation').length, 0, 'the question never reached the client');
    const { request } = prompter.asked[0];
    assert.equal(request.message, 'Which colour, and your initials?');
    assert.deepEqual(request.source, { server: 'Terminal: acp-agent.js', requester: 'agent', tool: 'Choose a colour', session: 'fix the tests' });
    assert.deepEqual(run.lines.at(-1), { type: 'exit', code: 0, signal: null });
  });

  it('takes an empty elicitation capability ({}: no modes) as none', async () => {
    const prompter = new ScriptedPrompter([accept({ colour: 'red' })]);
    const { env } = await window(prompter);
    const run = startClient(['--elicitation', 'empty', '--prompt', 'form'], [], fixture, env, workFolder());
    assert.equal(await run.done, 0, run.stderr);
    assert.equal(turns(run)[0].reply, 'form: {"action":"accept","content":{"colour":"red"}}');
    assert.deepEqual(prompter.asked[0].request.source, { server: 'Terminal: acp-agent.js', requester: 'agent', tool: 'Choose a colour', session: 'form' });
  });

  it('passes everything through to a client that offers elicitation itself', async () => {
    const prompter = new ScriptedPrompter();
    const { env } = await window(prompter);
    const run = startClient(['--elicitation', 'form', '--answer', '{"action":"accept","content":{"colour":"red"}}', '--prompt', 'form'], [], fixture, env, workFolder());
    assert.equal(await run.done, 0, run.stderr);
    assert.equal(run.lines.filter((l) => l.type === 'elicitation').length, 1);
    assert.equal(turns(run)[0].reply, 'form: {"action":"accept","content":{"colour":"red"}}');
    assert.equal(prompter.asked.length, 0);
  });

  it("starts the agent without the window's gateway address and token, which the proxy itself asks with", async () => {
    const prompter = new ScriptedPrompter([accept({ colour: 'blue' })]);
    const { env } = await window(prompter);
    const run = startClient(['--prompt', 'env ELICITATION_HOST_MCP_TOKEN ELICITATION_HOST_MCP_URL HOME', '--prompt', 'form'], [], fixture, env, workFolder());
    assert.equal(await run.done, 0, run.stderr);
    const [seen, form] = turns(run);
    assert.equal(seen.reply, 'env: {"ELICITATION_HOST_MCP_TOKEN":false,"ELICITATION_HOST_MCP_URL":false,"HOME":true}');
    // The proxy still reached the window with them.
    assert.equal(form.reply, 'form: {"action":"accept","content":{"colour":"blue"}}');
    assert.equal(prompter.asked.length, 1);
  });

  it('leaves permissions to the client', async () => {
    const prompter = new ScriptedPrompter();
    const { env } = await window(prompter);
    const run = startClient(['--permission', 'deny', '--prompt', 'permission'], [], fixture, env, workFolder());
    assert.equal(await run.done, 0, run.stderr);
    assert.deepEqual(run.lines.find((l) => l.type === 'permission'), { type: 'permission', title: 'Edit notes.txt', optionId: 'no' });
    assert.equal(turns(run)[0].reply, 'permission: {"outcome":"selected","optionId":"no"}');
    assert.equal(prompter.asked.length, 0);
  });

  it('closes our question when the client cancels the turn, and the client sees the turn cancelled', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    const { harness, env } = await window(prompter);
    const run = startClient(['--prompt', 'form'], [], fixture, env, workFolder());
    await waitUntil('the question to be asked in the window', () => prompter.asked.length === 1, 30_000);
    run.child.stdin.write('cancel\n');
    assert.equal(await run.done, 0, run.stderr);
    assert.deepEqual(turns(run)[0], { type: 'turn', prompt: 'form', reply: 'form: {"action":"cancel"}', stopReason: 'cancelled' });
    const record = await waitUntil('the question to be withdrawn', () => harness.host.store.state.requests.find((r) => r.status === 'abandoned'));
    assert.equal(record.reason, 'the terminal stopped waiting for the answer');
  });

  it('asks a question before the session, scoped to the client\'s session/new', async () => {
    const prompter = new ScriptedPrompter([accept({ workspace: 'api' })]);
    const { env } = await window(prompter);
    const run = startClient(['--prompt', 'hello'], [], [...fixture, '--ask-before-session'], env, workFolder());
    assert.equal(await run.done, 0, run.stderr);
    assert.match(String(turns(run)[0].reply), /before the session: \{"action":"accept","content":\{"workspace":"api"\}\}/);
    assert.deepEqual(prompter.asked[0].request.source, { server: 'Terminal: acp-agent.js', requester: 'agent', tool: 'before the session starts' });
  });

  it('refuses what the agent must not ask, naming the field, and asks nobody', async () => {
    const prompter = new ScriptedPrompter();
    const { env } = await window(prompter);
    const run = startClient(['--prompt', 'bad'], [], fixture, env, workFolder());
    assert.equal(await run.done, 0, run.stderr);
    const reply = String(turns(run)[0].reply);
    assert.match(reply, /bad: error -32602: Invalid elicitation request: Not a question we ask: question\.requestedSchema\.properties\.address: nested objects are not allowed/);
    assert.match(reply, /\| error -32602: Invalid elicitation request: requestId "not-a-request-of-yours" is not a request of the client waiting for its answer/);
    assert.equal(prompter.asked.length, 0);
  });

  it('without a window, answers from --answers, printing the question on stderr', async () => {
    const folder = workFolder();
    const answers = join(folder, 'answers.json');
    writeFileSync(answers, JSON.stringify([{ action: 'decline' }]));
    const run = startClient(['--prompt', 'form'], ['--answers', answers], fixture, environment(), folder);
    assert.equal(await run.done, 0, run.stderr);
    assert.equal(turns(run)[0].reply, 'form: {"action":"decline"}');
    assert.match(run.stderr, /\? Terminal: acp-agent\.js · Choose a colour, for session 'form': Which colour, and your initials\?\n/);
    assert.match(run.stderr, /→ decline\n/);
  });

  it('without a window or a terminal, cancels and says why', async () => {
    const run = startClient(['--prompt', 'form'], [], fixture, environment(), workFolder());
    assert.equal(await run.done, 0, run.stderr);
    assert.equal(turns(run)[0].reply, 'form: {"action":"cancel"}');
    assert.match(run.stderr, /elicitation-host acp-proxy: there is no VS Code window \(ELICITATION_HOST_MCP_URL\) and no terminal to ask in: the question is cancelled/);
  });

  it('without a window, asks on the terminal (/dev/tty) while the client keeps stdin and stdout', async () => {
    const { code, output } = await runInTerminal(
      [process.execPath, CLIENT, '--prompt', 'form', '--', process.execPath, CLI, 'acp-proxy', '--', ...fixture],
      [
        { prompt: /Colour: $/, keys: 'blue\r' },
        { prompt: /Initials.*: $/, keys: 'QQ\r' },
        { prompt: /\(a\)ccept — send, \(d\)ecline, \(c\)ancel\? $/, keys: 'a\r' },
      ],
      { env: environment(), cwd: workFolder() },
    );
    assert.equal(code, 0, output);
    assert.match(output, /\? Terminal: acp-agent\.js · Choose a colour, for session 'form': Which colour, and your initials\?/);
    assert.match(output, /\{"type":"turn","prompt":"form","reply":"form: \{\\"action\\":\\"accept\\",\\"content\\":\{\\"colour\\":\\"blue\\",\\"initials\\":\\"QQ\\"\}\}","stopReason":"end_turn"\}/);
  });

  for (const how of ['its client goes away', 'it is sent SIGTERM'] as const) {
    it(`ends an agent that ignores SIGTERM when ${how}: SIGKILL after the grace, and the proxy exits`, async () => {
      if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run "node scripts/build.mjs" first (npm run test:integration does it).`);
      // The proxy in a process group of its own, so that whatever it leaves behind is ended after the test.
      const proxy = spawn(process.execPath, [CLI, 'acp-proxy', '--', ...fixture, '--stubborn'], { env: environment(), cwd: workFolder(), detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      proxy.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      let exit: { code: number | null } | undefined;
      proxy.once('close', (code) => (exit = { code }));
      try {
        const agentPid = Number((await waitUntil('the agent to start', () => /fixture-agent: pid (\d+)/.exec(stderr) ?? undefined))[1]);
        if (how === 'its client goes away') proxy.stdin.end();
        else proxy.kill('SIGTERM');
        await waitUntil('the agent to be asked to end', () => stderr.includes('fixture-agent: ignoring SIGTERM'));
        const ended = await waitUntil('the proxy to exit', () => exit, 15_000);
        assert.equal(ended.code, 128 + 9, `the agent was killed (SIGKILL) and the proxy says so: ${stderr}`);
        await waitUntilGone(agentPid);
      } finally {
        if (!exit) process.kill(-proxy.pid!, 'SIGKILL');
      }
    });
  }

  describe('with claude-agent-acp and a fake model, in Manual mode', () => {
    let model: FakeAnthropic;
    before(async () => {
      model = await startFakeAnthropic(colourAndBuildModel);
    });
    after(() => model.close());

    it('AskUserQuestion is answered in the window, Bash\'s permission by the client, and the client gets both replies', async () => {
      const prompter = new ScriptedPrompter([accept({ question_0: 'Red' })]);
      const definition = claudeAgent(model.url);
      const { env } = await window(prompter);
      const folder = workFolder();
      mkdirSync(join(folder, 'build'));
      const run = startClient(['--mode', 'default', '--permission', 'deny', '--prompt', 'ask me', '--prompt', 'clean the build'], [], agentCommand(definition), { ...env, ...(definition.env as Record<string, string>) }, folder);
      assert.equal(await run.done, 0, run.stderr);
      const [ask, clean] = turns(run);
      assert.match(String(ask.reply), /Tool said: .*"Which colour\?"="Red"/);
      assert.equal(ask.stopReason, 'end_turn');
      assert.match(String(clean.reply), /Tool failed: /);
      assert.deepEqual(run.lines.find((l) => l.type === 'permission'), { type: 'permission', title: 'rm -rf build', optionId: 'reject' });
      assert.ok(existsSync(join(folder, 'build')));
      assert.equal(prompter.asked.length, 1);
      assert.equal(prompter.asked[0].request.source.server, 'Terminal: claude-agent-acp');
      assert.equal(prompter.asked[0].request.source.requester, 'agent');
      assert.equal(run.lines.filter((l) => l.type === 'elicitation').length, 0);
    });
  });
});
