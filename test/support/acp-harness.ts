/**
 * The host's middle (store, broker, validation, History) around a scripted person, and
 * ACP agents started through src/acp: the fixture agent (out/fixtures/acp-agent.js) or
 * the real Claude Code adapter. Files are the disk's; the workspace's trust is a flag the
 * test flips.
 */
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Prompter } from '../../src/elicitation/broker';
import { History } from '../../src/elicitation/history';
import { InputStore } from '../../src/elicitation/store';
import { AgentClient } from '../../src/acp/agent-client';
import type { AgentSession } from '../../src/acp/agent-session';
import { diskFiles } from '../../src/acp/disk-files';
import type { SessionEvent } from '../../src/acp/session-events';
import type { AgentDefinition, AgentClientPorts, AgentLog, AgentSettings } from '../../src/acp/ports';
import { createBroker } from '../../src/mcp/create-broker';
import type { ModelReply, ModelTurn } from '../fixtures/acp/fake-anthropic';
import { FIXTURES, REPO } from './servers';

export class AgentMemoryLog implements AgentLog {
  readonly lines: string[] = [];
  info(m: string): void { this.lines.push(`info ${m}`); }
  warn(m: string): void { this.lines.push(`warn ${m}`); }
  error(m: string): void { this.lines.push(`error ${m}`); }
  stderr(m: string): void { this.lines.push(`stderr ${m}`); }
}

export interface AcpHost {
  readonly store: InputStore;
  readonly history: History;
  readonly log: AgentMemoryLog;
  /** Flip to false to see writes refused. */
  trusted: boolean;
  settings: AgentSettings;
  readonly host: AgentClientPorts;
  start(definition: AgentDefinition): Promise<AgentClient>;
  closeAll(): Promise<void>;
}

export function createAcpHost(prompter: Prompter): AcpHost {
  const store = new InputStore();
  const log = new AgentMemoryLog();
  const clients: AgentClient[] = [];
  const history = new History();
  history.follow(store);
  const state: AcpHost = {
    store,
    history,
    log,
    trusted: true,
    settings: { urlMode: true, applyDefaults: true, elicitationTimeoutMs: 0 },
    host: undefined as unknown as AgentClientPorts,
    async start(definition) {
      const client = await AgentClient.start(definition, state.host);
      clients.push(client);
      return client;
    },
    async closeAll() {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    },
  };
  (state as { host: AgentClientPorts }).host = {
    broker: createBroker({ store, prompter }),
    files: diskFiles,
    isTrusted: () => state.trusted,
    log,
    settings: () => state.settings,
    clientInfo: { name: 'tests', version: '0' },
  };
  return state;
}

/** A fresh folder (its real path: /tmp may be a link) for a session to work in. */
export function workFolder(prefix = 'acp-work-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function fixtureAgent(name = 'fixture', args: string[] = []): AgentDefinition {
  const script = join(FIXTURES, 'acp-agent.js');
  if (!existsSync(script)) throw new Error('The fixture ACP agent is not built: run "node scripts/build.mjs" first (npm run test:integration does it).');
  return { name, command: process.execPath, args: [script, ...args] };
}

export const CLAUDE_ADAPTER = join(REPO, 'node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js');

/**
 * The real Claude Code adapter against a fake model at `baseUrl`. Any API key does. As root
 * (the tests' machine) Claude Code refuses to start unless IS_SANDBOX=1; HOME and its
 * config folder are fresh folders, so nothing of the machine's own Claude set-up is read or written.
 * Two agents given the same `home` share Claude Code's stored sessions (`.claude/projects`).
 */
export function claudeAgent(baseUrl: string, name = 'claude', home = workFolder('acp-claude-home-')): AgentDefinition {
  if (!existsSync(CLAUDE_ADAPTER)) {
    throw new Error('@agentclientprotocol/claude-agent-acp is not installed: run "npm ci" (it is a pinned devDependency).');
  }
  return {
    name,
    command: process.execPath,
    args: [CLAUDE_ADAPTER],
    env: {
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-test-not-a-real-key',
      IS_SANDBOX: '1',
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      // No telemetry, update checks or other traffic to anything but the fake model.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    },
  };
}

/** claude-agent-acp against the fake model as an entry of `elicitationHost.agents` (the UI scenarios' setting). */
export function claudeSetting(baseUrl: string, home: string): Pick<AgentDefinition, 'command' | 'args' | 'env'> {
  const { command, args, env } = claudeAgent(baseUrl, 'claude', home);
  return { command, args, env };
}

/**
 * The fake model's side for every test of claude-agent-acp (src/acp's, the runner's, the
 * proxy's, VS Code's): "ask me" asks a choice (AskUserQuestion, an elicitation), "clean the
 * build" runs `rm -rf build` (Bash, a permission in Manual mode), "edit <file>" replaces its
 * "second line" (Edit, a permission with its diff in Manual mode); a tool's result is said
 * back ("Tool said: …", or "Tool failed: …" for a refused or failed one), anything else is a
 * greeting.
 */
export function colourAndBuildModel(turn: ModelTurn): ModelReply {
  const [result] = turn.toolResults;
  if (result) return { text: `${result.isError ? 'Tool failed' : 'Tool said'}: ${result.content}` };
  if (turn.userText === 'ask me') {
    return { toolUse: { name: 'AskUserQuestion', input: { questions: [{ question: 'Which colour?', header: 'Colour', multiSelect: false, options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: 'cool' }] }] } } };
  }
  if (turn.userText === 'clean the build') return { toolUse: { name: 'Bash', input: { command: 'rm -rf build', description: 'Delete the build folder' } } };
  const edit = /^edit (\S+)$/.exec(turn.userText);
  if (edit) return { toolUse: { name: 'Edit', input: { file_path: edit[1], old_string: 'second line', new_string: 'second line, edited\nand a third' } } };
  return { text: 'Hello from the fake model.' };
}

/** Runs one turn and returns the agent's reply text, every event of the session meanwhile, and why it stopped. */
export async function turn(session: AgentSession, prompt: string): Promise<{ reply: string; events: SessionEvent[]; stop: string }> {
  const events: SessionEvent[] = [];
  const stopListening = session.events.add((e) => events.push(e));
  try {
    const stop = await session.prompt(prompt);
    const reply = events.flatMap((e) => (e.type === 'message' && e.role === 'agent' ? [e.text] : [])).join('');
    return { reply, events, stop };
  } finally {
    stopListening();
  }
}
