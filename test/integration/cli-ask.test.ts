/**
 * `elicitation-host ask` (the built dist/cli.js) as a script runs it: from a shell script
 * (`sh release.sh`, so who asks is "Terminal: release.sh"), answered in a window's gateway
 * that the test starts (a scripted person), on the terminal (a pseudo-terminal), or by
 * nobody (a detached process without a terminal).
 */
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOutput } from '../../src/cli/output';
import { parseServeArgs, type ServeOptions } from '../../src/cli/serve-args';
import { startServe } from '../../src/cli/serve-main';
import { workFolder } from '../support/acp-harness';
import { CLI, type Finished, finished, requireCli } from '../support/cli-run';
import { gatewaysPerTest, TOKEN } from '../support/gateway-harness';
import { accept, cancel, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { FIXTURES, requireFixtures } from '../support/servers';
import { runInTerminal, shellQuote } from '../support/terminal';
import { waitUntil } from '../support/wait';

function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!extra.ELICITATION_HOST_MCP_URL) delete env.ELICITATION_HOST_MCP_URL;
  if (!extra.ELICITATION_HOST_MCP_TOKEN) delete env.ELICITATION_HOST_MCP_TOKEN;
  return env;
}

/** A shell script in a fresh folder that runs `ask` with these arguments (not exec'd, unless asked: the script stays its parent). */
function releaseScript(args: string[], exec = false): { folder: string; script: string } {
  requireCli();
  const folder = workFolder('eh-ask-');
  const script = join(folder, 'release.sh');
  writeFileSync(script, `${exec ? 'exec ' : ''}${[process.execPath, CLI, 'ask', ...args].map(shellQuote).join(' ')}\n`);
  return { folder, script };
}

/** Runs the script detached (no terminal of its own); `started` gets the process. */
function runScript(args: string[], env: NodeJS.ProcessEnv, started?: (child: ChildProcess) => void): Promise<Finished> {
  // With a process to stop, the script execs ask: its exit code is ask's, not the shell's death by the signal.
  const { folder, script } = releaseScript(args, started !== undefined);
  const child = spawn('sh', [script], { cwd: folder, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started?.(child);
  return finished(child);
}

function schemaFile(schema: unknown): string {
  const file = join(workFolder('eh-ask-schema-'), 'schema.json');
  writeFileSync(file, JSON.stringify(schema));
  return file;
}

const SIGN_IN = {
  type: 'object',
  properties: {
    user: { type: 'string', title: 'User', default: 'ada' },
    password: { type: 'string', title: 'Password' },
  },
  required: ['user', 'password'],
};

describe('elicitation-host ask', function () {
  this.timeout(60_000);
  const gateways = gatewaysPerTest();

  async function window(prompter: ScriptedPrompter) {
    const harness = await gateways.start(prompter, []);
    return { harness, env: environment({ ELICITATION_HOST_MCP_URL: harness.gateway.url, ELICITATION_HOST_MCP_TOKEN: TOKEN }) };
  }

  describe('in the window of its terminal', () => {
    it('a destructive confirm, accepted: exit 0 and {} on stdout, asked as "Terminal: release.sh"', async () => {
      const prompter = new ScriptedPrompter([accept()]);
      const { env } = await window(prompter);
      const run = await runScript(['--confirm', 'Push to main?', '--destructive'], env);
      assert.deepEqual(run, { code: 0, stdout: '{}\n', stderr: '' });
      const { request, options } = prompter.asked[0];
      assert.equal(options.presentation, 'confirm');
      assert.equal(request.message, 'Push to main?');
      assert.deepEqual(request.source, { server: 'Terminal: release.sh', destructive: true, personStarted: true });
    });

    it('declined is exit 1 and cancelled exit 2, with nothing on stdout', async () => {
      const prompter = new ScriptedPrompter([decline, cancel]);
      const { env } = await window(prompter);
      assert.deepEqual(await runScript(['--confirm', 'Deploy?'], env), { code: 1, stdout: '', stderr: '' });
      assert.deepEqual(await runScript(['--confirm', 'Deploy?'], env), { code: 2, stdout: '', stderr: '' });
      assert.deepEqual(prompter.asked[0].request.source, { server: 'Terminal: release.sh' });
    });

    it('a form from a schema file: the content on stdout as JSON, a secret too when a script reads it', async () => {
      const prompter = new ScriptedPrompter([accept({ password: 'hunter2' })]);
      const { env } = await window(prompter);
      const run = await runScript(['--schema', schemaFile(SIGN_IN), '--message', 'Sign in to the registry'], env);
      assert.deepEqual(run, { code: 0, stdout: '{"user":"ada","password":"hunter2"}\n', stderr: '' });
      assert.deepEqual(prompter.asked[0].request.questions.map((q) => q.id), ['user', 'password']);
    });

    it('a link: the person sees it and accepts, exit 0', async () => {
      const prompter = new ScriptedPrompter([accept()]);
      const { env } = await window(prompter);
      const run = await runScript(['--url', 'https://example.com/release/7', '--message', 'Approve release 7'], env);
      assert.deepEqual(run, { code: 0, stdout: '{}\n', stderr: '' });
      const { request } = prompter.asked[0];
      assert.equal(request.mode, 'url');
      assert.equal(request.mode === 'url' && request.url, 'https://example.com/release/7');
    });

    it('a schema outside the elicitation subset is not asked: exit 3, naming the field', async () => {
      const prompter = new ScriptedPrompter();
      const { env } = await window(prompter);
      const run = await runScript(['--schema', schemaFile({ type: 'object', properties: { address: { type: 'object', properties: {} } } }), '--message', 'Where?'], env);
      assert.equal(run.code, 3);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /elicitation-host ask: Not a question we ask: question\.requestedSchema\.properties\.address: nested objects are not allowed/);
      assert.equal(prompter.asked.length, 0);
    });

    it('stopped while the person has not answered, its question leaves the window', async () => {
      const prompter = new ScriptedPrompter([waitForAbort]);
      const { harness, env } = await window(prompter);
      let script: ChildProcess | undefined;
      const run = runScript(['--confirm', 'Tag the release?'], env, (child) => (script = child));
      await waitUntil('the question to be asked', () => prompter.asked.length === 1);
      // As Ctrl-C in a terminal does.
      process.kill(script!.pid!, 'SIGINT');
      assert.equal((await run).code, 2);
      const record = await waitUntil('the question to be withdrawn', () => harness.host.store.state.requests.find((r) => r.status === 'abandoned'));
      assert.equal(record.reason, 'the terminal stopped waiting for the answer');
    });
  });

  it('elicitation-host serve answers terminals too, from its own answers file', async () => {
    requireFixtures();
    const answers = join(workFolder('eh-ask-serve-'), 'answers.json');
    writeFileSync(answers, JSON.stringify([{ action: 'accept', content: {} }]));
    const printed: string[] = [];
    const running = await startServe(parseServeArgs(['--json', '--answers', answers, '--', process.execPath, join(FIXTURES, 'stdio.js')]) as ServeOptions, {
      version: '0.0.0-test',
      env: { ELICITATION_HOST_MCP_TOKEN: TOKEN },
      out: createOutput(true, (text) => printed.push(text) > 0, (text) => printed.push(text) > 0),
    });
    try {
      const serving = JSON.parse(printed[0]) as { ask: string };
      assert.equal(serving.ask, `${running.gateway.url}/ask`);
      const run = await runScript(['--confirm', 'Publish 1.2.0?'], environment({ ELICITATION_HOST_MCP_URL: running.gateway.url, ELICITATION_HOST_MCP_TOKEN: TOKEN }));
      assert.deepEqual(run, { code: 0, stdout: '{}\n', stderr: '' });
      const asked = printed.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.type === 'elicitation');
      assert.deepEqual({ server: asked?.server, message: asked?.message }, { server: 'Terminal: release.sh', message: 'Publish 1.2.0?' });
    } finally {
      await running.stop();
    }
  });

  describe('without a window', () => {
    it('asks on the terminal; a secret is not printed to a terminal', async () => {
      const { folder, script } = releaseScript(['--schema', schemaFile(SIGN_IN), '--message', 'Sign in to the registry']);
      const { code, output } = await runInTerminal(['sh', script], [
        { prompt: /User \[ada\]: $/, keys: '\r' },
        { prompt: /Password \(hidden as you type\): $/, keys: 'hunter2\r' },
        { prompt: /\(a\)ccept — send, \(d\)ecline, \(c\)ancel\? $/, keys: 'a\r' },
      ], { env: environment(), cwd: folder });
      assert.equal(code, 0, output);
      assert.match(output, /\? Terminal: release\.sh: Sign in to the registry/);
      assert.match(output, /\{"user":"ada","password":"\*{8}"\}\n/);
      assert.ok(!output.includes('hunter2'), output);
    });

    it('a confirm on the terminal, declined: exit 1', async () => {
      const { folder, script } = releaseScript(['--confirm', 'Push to main?']);
      const { code, output } = await runInTerminal(['sh', script], [{ prompt: /\(c\)ancel\? $/, keys: 'd\r' }], { env: environment(), cwd: folder });
      assert.equal(code, 1, output);
      assert.match(output, /\? Terminal: release\.sh: Push to main\?\n {2}\(a yes\/no question\)/);
    });

    it('no window and no terminal: cancelled (exit 2), saying why', async () => {
      const run = await runScript(['--confirm', 'Push to main?'], environment());
      assert.deepEqual(run, { code: 2, stdout: '', stderr: 'elicitation-host ask: there is no VS Code window (ELICITATION_HOST_MCP_URL) and no terminal to ask in: the question is cancelled\n' });
    });

    it('a window that cannot be reached: the terminal instead, and with none, cancelled', async () => {
      const run = await runScript(['--confirm', 'Push to main?'], environment({ ELICITATION_HOST_MCP_URL: 'http://127.0.0.1:9', ELICITATION_HOST_MCP_TOKEN: TOKEN }));
      assert.equal(run.code, 2);
      assert.match(run.stderr, /the VS Code window at http:\/\/127\.0\.0\.1:9 cannot be reached \(ECONNREFUSED\); asking in this terminal instead\n.*there is no terminal to ask in either: the question is cancelled/);
    });

    it('never sends the token anywhere but this machine', async () => {
      const run = await runScript(['--confirm', 'Push to main?'], environment({ ELICITATION_HOST_MCP_URL: 'http://evil.example:8080', ELICITATION_HOST_MCP_TOKEN: TOKEN }));
      assert.equal(run.code, 3);
      assert.match(run.stderr, /must be an http address on this machine \(127\.0\.0\.1\), not http:\/\/evil\.example:8080/);
    });
  });
});
