/**
 * A real VS Code agent host for the tests: VS Code 1.139.1's server (the e2e tests' provisioned
 * code-server, test/e2e/harness) started with `--agent-host-port 0` and a connection token,
 * its Claude agent loading the agent SDK of our node_modules and calling a fake Anthropic
 * Messages API on 127.0.0.1 (test/fixtures/acp/fake-anthropic.ts), offline.
 *
 *   const model = await startFakeAnthropic(script);
 *   const host = await startAgentHost({ anthropicBaseUrl: model.url });
 *   const client = await AhpTestClient.connect(host.url);      // test/support/ahp-test-client.ts
 *   ... client.createClaudeSession(host.workFolder()) ...
 *   await host.stop();                                         // every process gone, or it throws
 *
 * start() returns once the Claude agent is usable: signed-out use is allowed on the host
 * (root/configChanged, which lasts for the host's life) and the agent lists its models.
 *
 * Root: Claude Code refuses to run as root with the permission bypass the agent host asks
 * for ("--dangerously-skip-permissions cannot be used with root/sudo privileges"). IS_SANDBOX=1
 * lifts that, and the agent host passes it on: with allowSignedOutWhenUsable and an API key,
 * it runs the SDK in its "native" mode with the server's whole environment. So the server
 * runs as whoever runs the tests, root included; no other user is needed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheRoot, provisionVsCode } from '../e2e/harness/provision';
import { type RunningVsCode, startVsCodeServer } from '../e2e/harness/server';
import { type FakeAnthropic, type ModelScript, startFakeAnthropic } from '../fixtures/acp/fake-anthropic';
import { AhpTestClient } from './ahp-test-client';
import { REPO } from './servers';

export interface AgentHostOptions {
  /** The fake Messages API (http://127.0.0.1:N), as ANTHROPIC_BASE_URL. */
  readonly anthropicBaseUrl: string;
  /** Progress lines (provisioning, start-up time). */
  readonly log?: (line: string) => void;
}

export interface RunningAgentHost {
  /** ws://127.0.0.1:N/?tkn=TOKEN: what AhpTestClient.connect takes. */
  readonly url: string;
  /** ws://127.0.0.1:N, without the token. */
  readonly endpoint: string;
  /** The connection token (random per run). */
  readonly token: string;
  /** The server's process group (every process it starts, Claude's included). */
  readonly pgid: number;
  /** The HOME of the server and of Claude Code (its ~/.claude), fresh per host. */
  readonly home: string;
  /** A fresh folder for a session to work in (its real path). */
  workFolder(): string;
  /** The server's output so far, for failure messages. */
  output(): string;
  /** Ends the server's whole process tree; throws naming any process that survived. */
  stop(): Promise<void>;
}

/** Where the agent host's Claude agent looks for the SDK: DIR/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs. */
export const CLAUDE_SDK_ROOT = REPO;
const SDK_FILES = ['node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs', 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude'];
const LISTENING = /Agent host server listening on 127\.0\.0\.1:(\d+)/;
const LISTEN_TIMEOUT_MS = 30_000;
const CLAUDE_TIMEOUT_MS = 30_000;

/** Says how to make it run when something it needs is missing. */
function requireSdk(): void {
  for (const file of SDK_FILES) {
    if (!existsSync(join(CLAUDE_SDK_ROOT, file))) {
      throw new Error(`${join(CLAUDE_SDK_ROOT, file)} is missing: the agent host's Claude agent loads the Claude agent SDK from our node_modules (a dependency of the pinned devDependency @agentclientprotocol/claude-agent-acp): run "npm ci".`);
    }
  }
}

async function provisioned(log: (line: string) => void) {
  try {
    return await provisionVsCode('newest', log);
  } catch (error) {
    throw new Error(`VS Code 1.139.1's server (the e2e tests' code-server 4.139.1) is not provisioned and could not be: ${error instanceof Error ? error.message : String(error)}\nRun "npx tsx test/e2e/harness/provision.ts newest" with the npm registry reachable (once; it is cached in ${cacheRoot()}).`, { cause: error });
  }
}

async function agentHostPort(server: RunningVsCode): Promise<number> {
  for (const deadline = Date.now() + LISTEN_TIMEOUT_MS; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const match = LISTENING.exec(server.output());
    if (match) return Number(match[1]);
  }
  throw new Error(`the VS Code server did not start its agent host within ${LISTEN_TIMEOUT_MS / 1000} s ("Agent host server listening on ..." never printed):\n${server.output().slice(-4000)}`);
}

/** Allows signed-out use (root config, kept by the host) and waits for the Claude agent's models. */
async function prepareClaude(url: string, server: RunningVsCode): Promise<void> {
  const client = await AhpTestClient.connect(url, { name: 'agent-host-harness' });
  try {
    await client.allowSignedOut();
    await client.waitForClaude(CLAUDE_TIMEOUT_MS);
  } catch (error) {
    throw new Error(`the agent host's Claude agent did not become usable (is ${join(CLAUDE_SDK_ROOT, SDK_FILES[0])} loadable?): ${error instanceof Error ? error.message : String(error)}\nServer output:\n${server.output().slice(-4000)}`, { cause: error });
  } finally {
    await client.close();
  }
}

export async function startAgentHost(options: AgentHostOptions): Promise<RunningAgentHost> {
  const log = options.log ?? (() => undefined);
  if (!/^http:\/\/127\.0\.0\.1:\d+\/?$/.test(options.anthropicBaseUrl)) throw new Error(`anthropicBaseUrl must be a loopback URL (http://127.0.0.1:PORT), not ${options.anthropicBaseUrl}: the agent host runs offline`);
  requireSdk();
  const vscode = await provisioned(log);
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'eh-agent-host-')));
  const home = join(base, 'home');
  mkdirSync(home);
  const token = randomBytes(24).toString('hex');
  // A file, so that the token stays out of `ps`.
  const tokenFile = join(base, 'connection-token');
  writeFileSync(tokenFile, token, { mode: 0o600 });
  const started = Date.now();
  let server: RunningVsCode;
  try {
    server = await startVsCodeServer({
      vscode,
      workspaceTrust: false,
      smokeTestDriver: false,
      connectionTokenFile: tokenFile,
      extraArgs: ['--agent-host-port', '0'],
      env: {
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        VSCODE_AGENT_HOST_CLAUDE_SDK_ROOT: CLAUDE_SDK_ROOT,
        ANTHROPIC_BASE_URL: options.anthropicBaseUrl,
        ANTHROPIC_API_KEY: 'sk-ant-test-not-a-real-key',
        // Claude Code refuses root without it (see the header); harmless for anyone else.
        IS_SANDBOX: '1',
        // No telemetry, update checks or other traffic to anything but the fake model.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
      log,
    });
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
  const stop = async (): Promise<void> => {
    try {
      await server.stop();
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
  try {
    const port = await agentHostPort(server);
    const endpoint = `ws://127.0.0.1:${port}`;
    const url = `${endpoint}/?tkn=${token}`;
    await prepareClaude(url, server);
    log(`agent host on ${endpoint}, Claude ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    let folders = 0;
    return {
      url,
      endpoint,
      token,
      pgid: server.pgid,
      home,
      workFolder() {
        const folder = join(base, `work-${++folders}`);
        mkdirSync(folder);
        return folder;
      },
      output: () => server.output(),
      stop,
    };
  } catch (error) {
    await stop().catch((stopError: unknown) => {
      if (error instanceof Error) error.message += `\n${stopError instanceof Error ? stopError.message : String(stopError)}`;
    });
    throw error;
  }
}

/**
 * Mocha hooks for a suite: one agent host running Claude on a fake model answering with
 * `script`, started before the suite (provisioning VS Code first when the machine has none)
 * and stopped after it. Read `host` and `model` inside the tests.
 */
export function claudeAgentHostForSuite(script: ModelScript): { readonly host: RunningAgentHost; readonly model: FakeAnthropic } {
  let host: RunningAgentHost | undefined;
  let model: FakeAnthropic | undefined;
  before(async function () {
    // Once per machine the first start provisions VS Code 1.139.1 (minutes).
    this.timeout(900_000);
    model = await startFakeAnthropic(script);
    host = await startAgentHost({ anthropicBaseUrl: model.url, log: (line) => process.stdout.write(`      ${line}\n`) });
  });
  after(async () => {
    await host?.stop();
    await model?.close();
  });
  return {
    get host() {
      if (!host) throw new Error('the agent host is not started: read it inside a test, after the suite\'s before hook');
      return host;
    },
    get model() {
      if (!model) throw new Error('the fake model is not started: read it inside a test, after the suite\'s before hook');
      return model;
    },
  };
}
