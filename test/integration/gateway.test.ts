/**
 * The gateway end to end: plain SDK clients (agents) in both protocol eras call fixture
 * servers through it; every question the servers ask is answered by our broker and a
 * scripted person, never by the agent; results come back to the agent.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { accept, cancel, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { History } from '../../src/elicitation/history';
import type { ServerDefinition } from '../../src/mcp/config/config';
import { bundledFixture, gatewayFixture, gatewaysPerTest } from '../support/gateway-harness';
import { requireFixtures, toolJson } from '../support/servers';
import { waitUntil } from '../support/wait';

const ERAS = ['legacy', 'auto'] as const;

function resultJson(result: unknown): Record<string, unknown> {
  return toolJson(result as CallToolResult);
}

describe('gateway: agents call servers through us', function () {
  this.timeout(30_000);
  const gateways = gatewaysPerTest();
  before(() => requireFixtures());

  for (const era of ERAS) {
    describe(`an agent in the ${era === 'legacy' ? '2025 era' : '2026-07-28 era'}`, () => {
      it('sees the server under its configured name and its tools as the server wrote them', async () => {
        const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('restaurant')]);
        const agent = await harness.agent('restaurant', { era });
        assert.equal(agent.getServerVersion()?.name, 'restaurant');
        assert.equal(agent.getProtocolEra(), era === 'legacy' ? 'legacy' : 'modern');
        const tools = (await agent.listTools()).tools;
        const clear = tools.find((t) => t.name === 'clear_completed');
        assert.deepEqual(clear?.annotations, { destructiveHint: true, readOnlyHint: false, title: 'Clear completed todos' });
        assert.deepEqual(Object.keys((clear?.inputSchema as { properties: object }).properties), ['count']);
      });

      it('a form the server asks is answered by the person, shown as asked for this agent; the result returns', async () => {
        const prompter = new ScriptedPrompter([accept({ party_size: 4, date: '2026-12-24', dietary: 'vegan' })]);
        const harness = await gateways.start(prompter, [gatewayFixture('restaurant')]);
        const agent = await harness.agent('restaurant', { era, name: 'claude-code', title: 'Claude Code' });
        const result = resultJson(await agent.callTool({ name: 'book_restaurant', arguments: { restaurant: 'Chez Test' } }));
        assert.deepEqual(result, { action: 'accept', content: { party_size: 4, date: '2026-12-24', dietary: 'vegan' } });
        const { request, options } = prompter.asked[0];
        assert.equal(options.presentation, 'form');
        assert.deepEqual(request.source, { server: 'restaurant', tool: 'book_restaurant', agent: 'Claude Code' });
      });

      it('a destructive confirm declined by the person reaches the server as decline', async () => {
        const prompter = new ScriptedPrompter([decline]);
        const harness = await gateways.start(prompter, [gatewayFixture('todos')]);
        const agent = await harness.agent('todos', { era });
        assert.deepEqual(resultJson(await agent.callTool({ name: 'clear_completed', arguments: { count: 3 } })), { action: 'decline', removed: 0 });
        assert.equal(prompter.asked[0].options.presentation, 'confirm');
        assert.equal(prompter.asked[0].request.source.destructive, true);
      });
    });
  }

  it("a workspace's server named like the person's own: the plain address reaches the person's, the workspace's is suffixed", async () => {
    // A trusted repository's .mcp.json "github": its id (a path) sorts before the person's `test#github`.
    const folder = mkdtempSync(join(tmpdir(), 'eh-gateway-repo-'));
    try {
      const repository: ServerDefinition = {
        ...bundledFixture('github', 'stdio.js', ['--name', 'github', '--only', 'echo']),
        source: { kind: 'workspace', file: join(folder, '.mcp.json'), folder, format: 'portable' },
      };
      const harness = await gateways.start(new ScriptedPrompter(), [repository, gatewayFixture('github')]);
      assert.deepEqual(
        harness.gateway.servers().map((s) => `${s.id} at ${s.path}`).sort(),
        [`${join(folder, '.mcp.json')}#github at /mcp/github-2`, 'test#github at /mcp/github'],
      );
      const own = await harness.agent('/mcp/github');
      assert.ok((await own.listTools()).tools.some((t) => t.name === 'book_restaurant'), "the plain address is the person's server (the gateway fixture)");
      const theirs = await harness.agent('/mcp/github-2');
      assert.deepEqual((await theirs.listTools()).tools.map((t) => t.name), ['echo'], "the repository's is at the suffixed address");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("an agent's questions go to the History with the call's result, under the agent's name", async () => {
    const prompter = new ScriptedPrompter([accept({ party_size: 2, date: '2027-02-01' })]);
    const history = new History();
    const harness = await gateways.start(prompter, [gatewayFixture('restaurant')], { gateway: { onToolResult: (match, text) => history.attachResult(match, text) } });
    history.follow(harness.host.store);
    const agent = await harness.agent('restaurant', { name: 'claude-code', title: 'Claude Code' });
    await agent.callTool({ name: 'book_restaurant', arguments: { restaurant: 'Chez History' } });
    const [entry] = history.entries;
    assert.deepEqual(entry.source, { server: 'restaurant', tool: 'book_restaurant', agent: 'Claude Code' });
    assert.equal(entry.outcome, 'accepted');
    assert.match(entry.result ?? '', /# book_restaurant on restaurant[\s\S]*Chez History[\s\S]*"party_size":2/);
  });

  it("a server that echoes a secret answer in its result: the History keeps neither the answer nor the echo in clear", async () => {
    const secrets = { code: '493817', phrase: 'correct "horse" battery staple' };
    const prompter = new ScriptedPrompter([accept(secrets)]);
    const history = new History();
    const harness = await gateways.start(prompter, [gatewayFixture('restaurant')], { gateway: { onToolResult: (match, text) => history.attachResult(match, text) } });
    history.follow(harness.host.store);
    const agent = await harness.agent('restaurant', { name: 'claude-code', title: 'Claude Code' });
    const schema = { type: 'object', properties: { code: { type: 'string', title: 'One-time code' }, phrase: { type: 'string', title: 'Words', writeOnly: true } } };
    const echoed = resultJson(await agent.callTool({ name: 'ask_schema', arguments: { message: 'Sign in', schema: JSON.stringify(schema) } }));
    assert.deepEqual((echoed.outcome as { content?: unknown }).content, secrets, 'the server did echo the answers');
    const [entry] = history.entries;
    assert.match(entry.result ?? '', /# ask_schema on restaurant[\s\S]*"code\\?":\\?"••••••••/);
    const kept = JSON.stringify(history.entries);
    for (const value of Object.values(secrets)) {
      for (const form of [value, JSON.stringify(value).slice(1, -1), JSON.stringify(JSON.stringify(value)).slice(1, -1)]) assert.ok(!kept.includes(form), `${form} is kept in clear: ${kept}`);
    }
  });

  it('a two-round 2026-07-28 server asks twice through an agent of either era', async () => {
    for (const era of ERAS) {
      const prompter = new ScriptedPrompter([accept({ destination: 'Lisbon', nights: 2 }), accept()]);
      const harness = await gateways.start(prompter, [bundledFixture('trips', 'modern.js')]);
      const agent = await harness.agent('trips', { era });
      assert.deepEqual(resultJson(await agent.callTool({ name: 'plan_trip', arguments: {} })), { destination: 'Lisbon', nights: 2, booked: true });
      assert.equal(harness.connections[0].connection.era, 'modern');
      assert.deepEqual(prompter.asked.map((a) => a.request.message), ['Where should Ada go?', 'Book 2 nights in Lisbon?']);
      await harness.close();
    }
  });

  it('a dismissed question is the server\'s to interpret, and the agent gets its answer', async () => {
    const prompter = new ScriptedPrompter([cancel]);
    const harness = await gateways.start(prompter, [gatewayFixture('restaurant')]);
    const agent = await harness.agent('restaurant');
    assert.deepEqual(resultJson(await agent.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } })), { action: 'cancel' });
  });

  for (const era of ERAS) {
    it(`the agent cancelling its call closes the open question and cancels the upstream call (${era === 'legacy' ? '2025 era' : '2026-07-28 era'})`, async () => {
      const prompter = new ScriptedPrompter([waitForAbort]);
      const harness = await gateways.start(prompter, [gatewayFixture('restaurant')]);
      const agent = await harness.agent('restaurant', { era });
      const controller = new AbortController();
      const call = agent.callTool({ name: 'confirm_action', arguments: { action: 'deploy' } }, { signal: controller.signal });
      await waitUntil('the question', () => prompter.asked.length === 1);
      controller.abort('the agent gave up');
      await assert.rejects(call);
      await waitUntil('the question to close', () => harness.host.store.state.requests.every((r) => r.status !== 'open'));
      assert.equal(prompter.asked[0].options.signal.aborted, true);
    });
  }

  it('a 2025-era server that answers with input-required rounds is asked through too', async () => {
    const prompter = new ScriptedPrompter([accept({ version: '1.2.3' }), accept()]);
    const harness = await gateways.start(prompter, [bundledFixture('rounds', 'raw-input-required.js')]);
    const agent = await harness.agent('rounds');
    const result = resultJson(await agent.callTool({ name: 'spec_two_rounds', arguments: {} }));
    assert.equal(result.state, 'round-2:1.2.3');
    assert.deepEqual(prompter.asked.map((a) => a.request.message), ['Which release should I tag?', 'Tag 1.2.3 now?']);
  });

  it('a -32042 "open this link first" error is shown to the person, and the call is retried for the agent', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const harness = await gateways.start(prompter, [gatewayFixture('bank')]);
    harness.host.urlFlow.finish = 'never'; // the server's completion notification, not the person, says the link is done
    const agent = await harness.agent('bank', { era: 'auto' });
    assert.deepEqual(resultJson(await agent.callTool({ name: 'needs_authorization', arguments: { autoCompleteMs: 100 } })), { authorized: true });
    assert.equal(prompter.asked[0].options.presentation, 'url');
  });

  it('agents calling at once each get the answer to their own question', async () => {
    // The person answers each booking with a party size read from the question's own text.
    const sizeFor = (message: string): number => Number(/table (\d+)/.exec(message)?.[1]);
    const prompter = new ScriptedPrompter([], (request, options) => accept({ party_size: sizeFor(request.message), date: '2026-01-01' })(request, options));
    const harness = await gateways.start(prompter, [gatewayFixture('restaurant')]);
    const agents = await Promise.all([1, 2, 3].map((n) => harness.agent('restaurant', { name: `agent-${n}`, era: n % 2 ? 'legacy' : 'auto' })));
    const results = await Promise.all(
      agents.flatMap((agent, a) => [1, 2].map((c) => agent.callTool({ name: 'book_restaurant', arguments: { restaurant: `table ${a * 2 + c}` } }))),
    );
    assert.deepEqual(
      results.map((r) => (resultJson(r).content as { party_size: number }).party_size),
      [1, 2, 3, 4, 5, 6],
    );
  });
});

