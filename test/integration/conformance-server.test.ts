/**
 * The MCP conformance suite's server scenarios, run against `elicitation-host serve` (the
 * built dist/cli.js) serving a fixture server that has what the scenarios expect by name
 * (test/fixtures/servers/conformance-upstream.ts). The gateway forwards: a scenario tests
 * the gateway's own HTTP and session handling, and that what the upstream has reaches the
 * agent unchanged. The suite sends no token, so a proxy adds it and nothing else
 * (test/support/token-proxy.ts). Every scenario the suite lists is either run here and must
 * pass with no check failed or warned, or named below with why it does not apply.
 */
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../support/cli-run';
import { type Conformance, CONFORMANCE_VERSION, listServerScenarios, provisionConformance, runServerScenario } from '../support/conformance';
import { REPO } from '../support/servers';
import { startTokenProxy, type TokenProxy } from '../support/token-proxy';

const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-error',
  'tools-call-with-progress',
  // The upstream's sampling request goes to the agent that made the call (it advertises sampling).
  'tools-call-sampling',
  'json-schema-2020-12',
  'server-sse-multiple-streams',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  // Host and Origin both naming the gateway itself are accepted; a foreign name is refused.
  'dns-rebinding-protection',
];

const NOT_FOR_A_FORWARDING_SERVER: Record<string, string> = {
  // By design: the gateway answers an upstream server's questions itself, in our prompts
  // (most agents cannot elicit), and never passes them to the agent; these scenarios
  // check that the agent (the suite) receives `elicitation/create`.
  'tools-call-elicitation': 'questions are asked of the person by the gateway, never forwarded to the agent',
  'elicitation-sep1034-defaults': 'questions are asked of the person by the gateway, never forwarded to the agent',
  'elicitation-sep1330-enums': 'questions are asked of the person by the gateway, never forwarded to the agent',
  // By design: the gateway keeps no SSE event store, so a POST stream that closes is not
  // resumed with Last-Event-ID: it ends its call as a cancel would (the agent went away);
  // the scenario's priming-event and retry-field checks are the SHOULDs of resumption.
  'server-sse-polling': 'a closed call stream ends its call; the gateway offers no SSE resumption',
  // Not forwarded (the gateway advertises tools, resources and prompts with listChanged,
  // nothing else): the upstream's log messages, completions and resource subscriptions
  // stay between it and our connection.
  'logging-set-level': 'the gateway does not advertise or forward logging',
  'tools-call-with-logging': 'the gateway does not advertise or forward logging',
  'completion-complete': 'the gateway does not advertise or forward completions',
  'resources-subscribe': 'the gateway does not advertise or forward resource subscriptions',
  'resources-unsubscribe': 'the gateway does not advertise or forward resource subscriptions',
};

const TOKEN = 'conformance-server-token-0123456789';
const UPSTREAM = join(REPO, 'test/fixtures/servers/conformance-upstream.ts');

/** Starts `elicitation-host serve --json` and resolves with the URL it prints. */
function startServe(): Promise<{ child: ChildProcess; url: string; port: number }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const child = spawn(process.execPath, [CLI, 'serve', '--json', '--decline', '--name', 'conformance-upstream', '--', process.execPath, '--import', 'tsx', UPSTREAM], {
    cwd: REPO,
    env: { ...process.env, ELICITATION_HOST_MCP_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.once('exit', (code) => reject(new Error(`serve exited (code ${code}) before serving:\n${stdout}${stderr}`)));
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const first = stdout.split('\n').find((line) => line.includes('"serving"'));
      if (!first) return;
      const serving = JSON.parse(first) as { url: string; port: number };
      resolve({ child, url: serving.url, port: serving.port });
    });
  });
}

describe(`the MCP conformance suite's server scenarios, through elicitation-host serve (@modelcontextprotocol/conformance ${CONFORMANCE_VERSION})`, function () {
  this.timeout(60_000);
  let suite: Conformance;
  let serve: ChildProcess | undefined;
  let proxy: TokenProxy | undefined;
  let url: string;

  before(async function () {
    // The first run installs the suite and Node 22 from the npm registry.
    this.timeout(10 * 60_000);
    suite = await provisionConformance();
    const served = await startServe();
    serve = served.child;
    proxy = await startTokenProxy(served.port, TOKEN);
    url = `${proxy.origin}${new URL(served.url).pathname}`;
  });

  after(async () => {
    await proxy?.close();
    if (serve && serve.exitCode === null) {
      const exited = new Promise((resolve) => serve!.once('exit', resolve));
      serve.kill('SIGTERM');
      await exited;
    }
  });

  it('runs every server scenario the suite has, or says why it does not apply', async () => {
    const notRun = Object.keys(NOT_FOR_A_FORWARDING_SERVER);
    assert.deepEqual(SCENARIOS.filter((s) => notRun.includes(s)), [], 'a scenario is both run and excused');
    assert.deepEqual([...SCENARIOS, ...notRun].sort(), (await listServerScenarios(suite)).sort());
  });

  for (const scenario of SCENARIOS) {
    it(scenario, async () => {
      const run = await runServerScenario(suite, scenario, url);
      assert.ok(run.passed, `${scenario}: ${run.summary ?? 'no summary'} (exit code ${run.exitCode})\n${run.output.slice(-4000)}`);
    });
  }
});
