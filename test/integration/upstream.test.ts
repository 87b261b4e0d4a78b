/**
 * The gateway's port (`Upstream`, from `ServerManager.upstream`) over real fixture
 * servers of both eras: one shared start, lists and results as the server sent them, the
 * caller on every question, sampling routed to the call's sampler, cancellation and
 * progress, list changes (announced, and on restart).
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { type ConfigSource, parseMcpJson } from '../../src/mcp/config/config';
import { ServerManager } from '../../src/mcp/servers/manager';
import { connectionUpstream, type ListKind } from '../../src/mcp/servers/upstream';
import { managerDeps } from '../support/manager-deps';
import { accept, ScriptedPrompter, type Step, waitForAbort } from '../support/scripted-prompter';
import { withHost, FIXTURES, MemoryLog, requireFixtures, stdioDefinition, toolJson } from '../support/servers';
import { waitUntil } from '../support/wait';

const folder = mkdtempSync(join(tmpdir(), 'eh-upstream-'));
const source: ConfigSource = { kind: 'workspace', file: join(folder, '.vscode', 'mcp.json'), folder };

interface Setup {
  manager: ServerManager;
  prompter: ScriptedPrompter;
  log: MemoryLog;
  records: () => Array<{ tool: string; outcome: Record<string, unknown> }>;
}

async function setup(script: string, steps: Step[] = []): Promise<Setup> {
  requireFixtures();
  const prompter = new ScriptedPrompter(steps, accept());
  const log = new MemoryLog();
  const recordFile = join(mkdtempSync(join(tmpdir(), 'eh-upstream-rec-')), 'records.jsonl');
  const manager = new ServerManager(managerDeps(prompter, log, folder, { relaySampling: true }));
  const servers = { fixture: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, script)], env: { FIXTURE_RECORD: recordFile } } };
  await manager.update([{ source, parsed: parseMcpJson(JSON.stringify({ servers }), source) }]);
  const records = (): Array<{ tool: string; outcome: Record<string, unknown> }> => {
    try {
      return readFileSync(recordFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tool: string; outcome: Record<string, unknown> });
    } catch {
      return [];
    }
  };
  return { manager, prompter, log, records };
}

for (const [era, script] of [
  ['2025 era (stdio.js)', 'stdio.js'],
  ['2026-07-28 era (modern.js)', 'modern.js'],
] as const) {
  describe(`upstream port, ${era}`, () => {
    let s: Setup;
    beforeEach(async () => (s = await setup(script)));
    afterEach(() => s.manager.stopAll());

    it('one object per server; concurrent first calls share one start', async () => {
      const upstream = s.manager.upstream('fixture');
      assert.equal(s.manager.upstream('fixture'), upstream, 'the same object every time');
      assert.equal(upstream.name, 'fixture');
      assert.equal(upstream.capabilities(), undefined, 'nothing declared before it starts');
      await Promise.all([upstream.ensureStarted(), upstream.ensureStarted(), upstream.listTools()]);
      assert.equal(s.log.lines.filter((l) => l.includes('connected over')).length, 1, 'one connection');
      assert.ok(upstream.capabilities()?.tools, 'the server declared tools');
    });

    it('tools, resources and prompts as the server sent them', async () => {
      const upstream = s.manager.upstream('fixture');
      const tools = await upstream.listTools();
      const summarise = tools.find((t) => t.name === 'summarise');
      assert.equal(summarise?.description, 'Asks the client for an LLM completion (sampling) and returns it');
      assert.equal((summarise?.inputSchema.properties as Record<string, { default?: unknown }>).topic.default, 'the weather');
      const { resources } = await upstream.listResources();
      assert.ok(resources.some((r) => r.uri === 'note://welcome' && r.title === 'Welcome note'), JSON.stringify(resources));
      const { resourceTemplates } = await upstream.listResourceTemplates();
      assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'note://{name}'));
      assert.deepEqual((await upstream.readResource('note://welcome')).contents, [{ uri: 'note://welcome', text: 'Welcome to the fixture' }]);
      const { prompts } = await upstream.listPrompts();
      assert.ok(prompts.some((p) => p.name === 'greeting'));
      const greeting = await upstream.getPrompt('greeting', { name: 'Ada' });
      assert.deepEqual(greeting.messages, [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada' } }]);
    });

    it('questions a call raises name its caller: an agent, or the person', async () => {
      const upstream = s.manager.upstream('fixture');
      const read = await upstream.readResource('secret://vault', { caller: { kind: 'agent', name: 'Claude Code' } });
      assert.deepEqual(read.contents, [{ uri: 'secret://vault', text: 'the vault is open' }]);
      assert.equal(s.prompter.asked.at(-1)?.request.source.agent, 'Claude Code');
      assert.equal(s.prompter.asked.at(-1)?.request.source.personStarted, undefined);
      const prompt = await upstream.getPrompt('careful_greeting', { name: 'Ada' }, { caller: { kind: 'person' } });
      assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada' } }]);
      assert.equal(s.prompter.asked.at(-1)?.request.source.personStarted, true);
      assert.equal(s.prompter.asked.at(-1)?.request.source.agent, undefined);
    });

    it("sampling goes to the call's sampler; without one it is refused", async () => {
      const upstream = s.manager.upstream('fixture');
      const seen: CreateMessageRequestParams[] = [];
      const result = await upstream.callTool(
        'summarise',
        { topic: 'tides' },
        {
          caller: { kind: 'agent', name: 'Claude Code' },
          sampling: async (params) => {
            seen.push(params);
            return { role: 'assistant', content: { type: 'text', text: 'High, then low.' }, model: 'test-model' };
          },
        },
      );
      assert.deepEqual(seen.map((p) => p.messages), [[{ role: 'user', content: { type: 'text', text: 'Summarise tides' } }]]);
      assert.match(JSON.stringify(toolJson(result)), /High, then low\./);
      const refused = await upstream.callTool('summarise', {}).then(
        (r) => JSON.stringify(r),
        (e: unknown) => String(e),
      );
      assert.doesNotMatch(refused, /High, then low/);
      assert.match(refused, /sampling/i, refused);
    });

    it('the caller cancels: the server hears it; progress reaches the caller', async () => {
      const upstream = s.manager.upstream('fixture');
      const abort = new AbortController();
      const progress: string[] = [];
      const call = upstream.callTool('wait_for_cancel', {}, {
        signal: abort.signal,
        onProgress: (p) => {
          if (p.message) progress.push(p.message);
          abort.abort(new Error('the agent cancelled'));
        },
      });
      await assert.rejects(call, /the agent cancelled/);
      assert.deepEqual(progress, ['waiting for a cancel']);
      const heard = await waitUntil('the server to hear the cancel', () => s.records().find((r) => r.tool === 'wait_for_cancel'));
      assert.equal(heard.outcome.cancelled, true);
    });

    it('list changes: what the server announces, and every list on a restart', async () => {
      const upstream = s.manager.upstream('fixture');
      await upstream.ensureStarted();
      const heard: ListKind[] = [];
      const unsubscribe = upstream.onListChanged((kind) => heard.push(kind));
      await upstream.callTool('announce_change', { list: 'resources' });
      await upstream.callTool('announce_change', { list: 'tools' });
      await waitUntil('both announcements', () => heard.includes('resources') && heard.includes('tools'));
      heard.length = 0;
      await s.manager.restart('fixture');
      assert.deepEqual([...heard].sort(), ['prompts', 'resources', 'tools']);
      unsubscribe();
      await s.manager.restart('fixture');
      assert.equal(heard.length, 3, 'nothing after the unsubscribe');
    });
  });
}

describe('upstream port: a server that died', () => {
  it('the next call starts it afresh', async () => {
    const s = await setup('stdio.js', [waitForAbort]);
    try {
      const upstream = s.manager.upstream('fixture');
      await assert.rejects(upstream.callTool('crash_during_elicitation', { afterMs: 0 }), /disconnected|stopped/);
      assert.deepEqual(toolJson(await upstream.callTool('echo', { text: 'back again' })), { echo: 'back again' });
    } finally {
      await s.manager.stopAll();
    }
  });
});

describe('upstream port over one connection (no manager)', () => {
  it('every caller during a start waits for that start, and finds the server running', async () => {
    await withHost(new ScriptedPrompter([], accept()), async (host) => {
      const connection = host.connection(stdioDefinition('single'));
      const upstream = connectionUpstream(connection, 'test#single');
      assert.equal(upstream.id, 'test#single');
      const states = await Promise.all([connection.start(), upstream.ensureStarted(), connection.start()].map((p) => p.then(() => connection.state)));
      assert.deepEqual(states, ['running', 'running', 'running']);
      assert.equal(host.log.lines.filter((l) => l.includes('connected over')).length, 1, 'one connection');
      assert.deepEqual(toolJson(await upstream.callTool('echo', { text: 'hi' })), { echo: 'hi' });
    });
  });
});
