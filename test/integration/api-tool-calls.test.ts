/**
 * An extension calls a real fixture server's tools through the API (forExtension(id).callTool):
 * nothing starts before the person allowed the extension this server; Deny rejects with a
 * typed -32001 naming both, and is kept; Allow is kept; a destructive tool is confirmed on
 * every call; the server's questions say which extension's call they belong to.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi, ElicitationRequestError } from '../../src/api';
import { InputStore } from '../../src/elicitation/store';
import { parseMcpJson, type ConfigSource } from '../../src/mcp/config/config';
import { createBroker } from '../../src/mcp/create-broker';
import { ServerManager } from '../../src/mcp/servers/manager';
import { type ConsentDialogs, ToolConsents } from '../../src/mcp/tool-consent';
import { managerDeps } from '../support/manager-deps';
import { accept, ScriptedPrompter } from '../support/scripted-prompter';
import { FIXTURES, MemoryLog, requireFixtures, toolJson } from '../support/servers';

const folder = mkdtempSync(join(tmpdir(), 'eh-api-tools-'));
const source: ConfigSource = { kind: 'workspace', file: join(folder, '.vscode', 'mcp.json'), folder };

/** The person at the two dialogs, scripted; records what each showed. */
class Dialogs implements ConsentDialogs {
  readonly shown: string[] = [];
  constructor(
    readonly allow: Array<'allow' | 'deny' | undefined> = [],
    readonly run: boolean[] = [],
  ) {}
  async askToAllow(extension: { name: string; id: string }, server: { name: string }) {
    this.shown.push(`allow? ${extension.name} (${extension.id}) → ${server.name}`);
    return this.allow.shift();
  }
  async confirmCall(extension: { name: string }, server: { name: string }, tool: { name: string }, args: Record<string, unknown>) {
    this.shown.push(`run? ${extension.name} → ${server.name} · ${tool.name} ${JSON.stringify(args)}`);
    return this.run.shift() ?? false;
  }
}

async function setup(dialogs: Dialogs) {
  requireFixtures();
  const recordFile = join(mkdtempSync(join(tmpdir(), 'eh-api-tools-rec-')), 'records.jsonl');
  const prompter = new ScriptedPrompter([], accept());
  const store = new InputStore();
  const broker = createBroker({ store, prompter });
  const manager = new ServerManager(managerDeps(prompter, new MemoryLog(), folder, { broker }));
  const servers = { fixture: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'stdio.js')], env: { FIXTURE_RECORD: recordFile } } };
  await manager.update([{ source, parsed: parseMcpJson(JSON.stringify({ servers }), source) }]);
  const memory = new Map<string, unknown>();
  const consents = new ToolConsents({ get: <T>(key: string, fallback: T) => (memory.has(key) ? (memory.get(key) as T) : fallback), update: async (key, value) => void memory.set(key, value) }, dialogs);
  const api = createApi({
    broker,
    store,
    manager,
    applyDefaults: () => false,
    installedExtension: (id) => (id.toLowerCase() === 'tests.api-probe' ? { id: 'tests.api-probe', displayName: 'API Probe' } : undefined),
    consents,
  });
  const records = (): string[] => readFileSync(recordFile, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { tool: string }).tool);
  return { api, manager, prompter, records, ext: api.forExtension('tests.api-probe') };
}

const refusedByPerson = (pattern: RegExp) => (e: unknown) => e instanceof ElicitationRequestError && e.code === -32001 && pattern.test(e.message);

describe('extension API: tool calls need the person\'s consent', () => {
  let manager: ServerManager | undefined;
  afterEach(() => manager?.stopAll());

  it('Deny: the call rejects with -32001 naming the extension and the server, the server never starts, and later calls are refused unasked', async () => {
    const dialogs = new Dialogs(['deny']);
    const s = await setup(dialogs);
    manager = s.manager;
    await assert.rejects(s.ext.callTool('fixture', 'echo', { text: 'hi' }), refusedByPerson(/did not allow the extension "API Probe" to call the tools of the MCP server "fixture"/));
    assert.equal(s.manager.find('fixture')?.connection, undefined, 'nothing started: a start may ask for saved inputs or a sign-in');
    await assert.rejects(s.ext.callTool('fixture', 'echo', { text: 'hi' }), refusedByPerson(/denied the extension "API Probe" the tools of the MCP server "fixture"/));
    assert.deepEqual(dialogs.shown, ['allow? API Probe (tests.api-probe) → fixture']);
  });

  it('Allow: the call runs and the next is not asked; the server\'s questions name the extension\'s call', async () => {
    const dialogs = new Dialogs(['allow']);
    const s = await setup(dialogs);
    manager = s.manager;
    assert.deepEqual(toolJson((await s.ext.callTool('fixture', 'echo', { text: 'first' })) as { content?: unknown }), { echo: 'first' });
    assert.deepEqual(toolJson((await s.ext.callTool('fixture', 'echo', { text: 'second' })) as { content?: unknown }), { echo: 'second' });
    assert.deepEqual(dialogs.shown, ['allow? API Probe (tests.api-probe) → fixture']);
    await s.ext.callTool('fixture', 'confirm_action', { action: 'deploy' });
    assert.equal(s.prompter.asked.at(-1)?.request.source.agent, 'Extension: API Probe');
  });

  it('a destructive tool is confirmed on every call, with its arguments: declined, it does not run (-32001); confirmed, it runs', async () => {
    const dialogs = new Dialogs(['allow'], [false, true]);
    const s = await setup(dialogs);
    manager = s.manager;
    await assert.rejects(s.ext.callTool('fixture', 'clear_completed', { count: 2 }), refusedByPerson(/declined the extension "API Probe"'s call of "Clear completed todos", a destructive tool of the MCP server "fixture"/));
    assert.deepEqual(s.records(), [], 'the declined call never reached the server');
    assert.deepEqual(toolJson((await s.ext.callTool('fixture', 'clear_completed', { count: 3 })) as { content?: unknown }), { action: 'accept', content: {}, removed: 3 });
    assert.deepEqual(dialogs.shown, [
      'allow? API Probe (tests.api-probe) → fixture',
      'run? API Probe → fixture · clear_completed {"count":2}',
      'run? API Probe → fixture · clear_completed {"count":3}',
    ]);
  });

  it('an unknown server or tool, or arguments that are no object, are -32602; the token cancels a call', async () => {
    const s = await setup(new Dialogs(['allow']));
    manager = s.manager;
    const invalid = (pattern: RegExp) => (e: unknown) => e instanceof ElicitationRequestError && e.code === -32602 && pattern.test(e.message);
    await assert.rejects(s.ext.callTool('nowhere', 'echo'), invalid(/no MCP server "nowhere"/));
    await assert.rejects(s.ext.callTool('fixture', 'no_such_tool'), invalid(/"fixture" has no tool "no_such_tool"/));
    await assert.rejects(s.ext.callTool('fixture', 'echo', [] as never), invalid(/args must be an object/));
    const listeners: Array<() => void> = [];
    const token = { isCancellationRequested: false, onCancellationRequested: (l: () => void) => (listeners.push(l), { dispose: () => undefined }) };
    const call = s.ext.callTool('fixture', 'wait_for_cancel', {}, { token: token as never });
    setImmediate(() => ((token.isCancellationRequested = true), listeners.forEach((l) => l())));
    await assert.rejects(call, /the extension cancelled the call/);
  });
});
