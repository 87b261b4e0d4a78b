/**
 * An ACP agent started here gets the person's MCP servers through the gateway, with a
 * token of its session's own (src/gateway/session-servers.ts): the fixture agent over HTTP
 * (it declares `mcpCapabilities.http`) and over our stdio bridge (it does not), and the real
 * Claude Code adapter with the fake model. The agent lists a served server's tool; calling
 * it, the server's question reaches our prompts headed with the agent, its session and the
 * server; the token reaches the servers only, is on no command line, and dies with the session.
 * A session reopened (`session/load`) gets them the same way, with a token of its own.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSession } from '../../src/acp/agent-session';
import type { SharedServers } from '../../src/acp/ports';
import { sourceLabel } from '../../src/elicitation/request';
import { sessionServers } from '../../src/gateway/session-servers';
import { type FakeAnthropic, type ModelTurn, startFakeAnthropic } from '../fixtures/acp/fake-anthropic';
import { type AcpHost, claudeAgent, createAcpHost, fixtureAgent, workFolder } from '../support/acp-harness';
import { gatewayFixture, type GatewayHarness, gatewaysPerTest } from '../support/gateway-harness';
import { accept, ScriptedPrompter } from '../support/scripted-prompter';
import { REPO } from '../support/servers';

const CLI = join(REPO, 'dist/cli.js');

/** The agent's reply to one prompt. */
async function reply(session: AgentSession, prompt: string): Promise<string> {
  const parts: string[] = [];
  const stop = session.events.add((e) => {
    if (e.type === 'message' && e.role === 'agent') parts.push(e.text);
  });
  try {
    await session.prompt(prompt);
    return parts.join('');
  } finally {
    stop();
  }
}

describe('ACP: agents get the MCP servers through the gateway', function () {
  this.timeout(120_000);
  const gateways = gatewaysPerTest();
  let prompter: ScriptedPrompter;
  let acp: AcpHost;
  let harness: GatewayHarness;
  /** What each session was handed, as the host made it (the test reads the token from here). */
  let handed: SharedServers[];

  before(() => {
    if (!existsSync(CLI)) throw new Error('The runner is not built: run "node scripts/build.mjs" first (npm run test:integration does it).');
  });

  beforeEach(async () => {
    prompter = new ScriptedPrompter();
    harness = await gateways.start(prompter, [gatewayFixture('restaurant')]);
    acp = createAcpHost(prompter);
    handed = [];
    (acp.host as { shareServers?: unknown }).shareServers = async (request: Parameters<NonNullable<typeof acp.host.shareServers>>[0]) => {
      const shared = sessionServers(harness.gateway, request, { runtime: process.execPath, script: CLI });
      handed.push(shared);
      return shared;
    };
  });
  afterEach(() => acp.closeAll());

  /** The question the served server asks, answered yes, with who the person is told asks. */
  function answerTheServer(): { heading: () => string } {
    let heading = '';
    prompter.push((request, options) => {
      heading = sourceLabel(request.source);
      return accept({ confirm: true })(request, options);
    });
    return { heading: () => heading };
  }

  it('over HTTP to an agent that takes HTTP: the tool is listed, its question is headed with agent, session and server', async () => {
    const client = await acp.start(fixtureAgent('fixture', ['--mcp-http']));
    const session = await client.newSession({ cwd: workFolder() });
    assert.deepEqual(session.servers.given, [{ name: 'restaurant', transport: 'http' }]);
    const servers = JSON.parse((await reply(session, 'servers')).replace(/^servers: /, '')) as Array<Record<string, unknown>>;
    assert.deepEqual(servers, [{ name: 'restaurant', type: 'http', url: harness.gateway.servers()[0].url, headers: ['Authorization'] }]);
    assert.match(await reply(session, 'mcp-list'), /^mcp-list: restaurant: .*\bconfirm_action\b/);
    await reply(session, 'hello'); // the session's title: "fix the tests"
    const asked = answerTheServer();
    const result = await reply(session, 'mcp-call restaurant confirm_action {"action":"book a table"}');
    assert.equal(asked.heading(), "restaurant · confirm_action, for fixture in session 'fix the tests'");
    assert.match(result, /^mcp-call: .*"action":"accept"/);
  });

  it('over our stdio bridge to an agent that does not: the token is in its environment, not on its command line', async () => {
    const client = await acp.start(fixtureAgent());
    const session = await client.newSession({ cwd: workFolder() });
    assert.deepEqual(session.servers.given, [{ name: 'restaurant', transport: 'stdio' }]);
    const servers = JSON.parse((await reply(session, 'servers')).replace(/^servers: /, '')) as Array<Record<string, unknown>>;
    assert.deepEqual(servers, [
      { name: 'restaurant', type: 'stdio', command: process.execPath, args: [CLI, 'mcp-bridge', harness.gateway.servers()[0].url], env: ['ELECTRON_RUN_AS_NODE', 'ELICITATION_HOST_MCP_TOKEN'] },
    ]);
    const token = (handed[0].entries[0] as { env: Array<{ name: string; value: string }> }).env.find((e) => e.name === 'ELICITATION_HOST_MCP_TOKEN')!.value;
    assert.ok(!JSON.stringify(servers).includes(token), 'the token is nowhere but the environment');
    assert.match(await reply(session, 'mcp-list'), /^mcp-list: restaurant: .*\bconfirm_action\b/);
    const asked = answerTheServer();
    const result = await reply(session, 'mcp-call restaurant confirm_action {"action":"book a table"}');
    assert.match(asked.heading(), /^restaurant · confirm_action, for fixture in session '.+'$/);
    assert.match(result, /^mcp-call: .*"action":"accept"/);
  });

  it("the session's token reaches the servers only, and dies with the session", async () => {
    const client = await acp.start(fixtureAgent('fixture', ['--mcp-http']));
    await client.newSession({ cwd: workFolder() });
    const entry = handed[0].entries[0] as { url: string; headers: Array<{ value: string }> };
    const authorization = entry.headers[0].value;
    const post = (url: string): Promise<Response> =>
      fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    // Past the guard (the endpoint wants a session first), but not to /ask: it asks no questions of its own.
    assert.equal((await post(entry.url)).status, 400);
    assert.match(await (await post(entry.url)).text(), /No session: send initialize first/);
    const ask = await post(harness.gateway.askUrl);
    assert.equal(ask.status, 403);
    assert.match(await ask.text(), /for its MCP servers only/);
    assert.equal(harness.gateway.grants.size, 1);
    await client.close();
    assert.equal(harness.gateway.grants.size, 0, 'the grant ends with the session');
    assert.match(await (await post(entry.url)).text(), /Wrong token/);
  });

  it('a reopened session gets them too (session/load in a new process), with a token of its own that dies with it', async () => {
    const agent = fixtureAgent('fixture', ['--mcp-http', '--store', join(workFolder('acp-store-'), 'sessions')]);
    const cwd = workFolder();
    const first = await (await acp.start(agent)).newSession({ cwd });
    await reply(first, 'hello');
    await acp.closeAll();
    assert.equal(harness.gateway.grants.size, 0);
    const client = await acp.start(agent);
    const { session } = await client.reopenSession({ sessionId: first.id, cwd });
    assert.deepEqual(session.servers.given, [{ name: 'restaurant', transport: 'http' }]);
    const servers = JSON.parse((await reply(session, 'servers')).replace(/^servers: /, '')) as Array<Record<string, unknown>>;
    assert.deepEqual(servers, [{ name: 'restaurant', type: 'http', url: harness.gateway.servers()[0].url, headers: ['Authorization'] }]);
    assert.notEqual(handed[1].entries[0], handed[0].entries[0]);
    const asked = answerTheServer();
    const result = await reply(session, 'mcp-call restaurant confirm_action {"action":"book a table"}');
    assert.equal(asked.heading(), "restaurant · confirm_action, for fixture in session 'fix the tests'");
    assert.match(result, /^mcp-call: .*"action":"accept"/);
    assert.equal(harness.gateway.grants.size, 1);
    await client.close();
    assert.equal(harness.gateway.grants.size, 0, 'the grant ends with the reopened session');
  });

  it('without the host sharing, a session gets no servers (as before)', async () => {
    (acp.host as { shareServers?: unknown }).shareServers = undefined;
    const client = await acp.start(fixtureAgent('fixture', ['--mcp-http']));
    const session = await client.newSession({ cwd: workFolder() });
    assert.deepEqual(session.servers.given, []);
    assert.equal(await reply(session, 'servers'), 'servers: []');
  });
});

describe('ACP: claude-agent-acp gets the MCP servers through the gateway (fake model)', function () {
  this.timeout(180_000);
  const gateways = gatewaysPerTest();
  let model: FakeAnthropic;
  let prompter: ScriptedPrompter;
  let acp: AcpHost;

  /** "book it" calls the served server's tool, as Claude Code names it; a tool's result is said back. */
  function script(turn: ModelTurn) {
    const [result] = turn.toolResults;
    if (result) return { text: `${result.isError ? 'Tool failed' : 'Tool said'}: ${result.content}` };
    if (turn.userText === 'book it') return { toolUse: { name: 'mcp__restaurant__confirm_action', input: { action: 'book a table' } } };
    return { text: 'Hello.' };
  }

  before(async () => {
    model = await startFakeAnthropic(script);
  });
  after(() => model.close());
  afterEach(() => acp.closeAll());

  it("lists the served server's tool to the model, and the tool's question reaches our prompt headed with claude, its session and the server", async () => {
    prompter = new ScriptedPrompter();
    const harness = await gateways.start(prompter, [gatewayFixture('restaurant')]);
    acp = createAcpHost(prompter);
    (acp.host as { shareServers?: unknown }).shareServers = async (request: Parameters<NonNullable<typeof acp.host.shareServers>>[0]) =>
      sessionServers(harness.gateway, request, { runtime: process.execPath, script: CLI });
    const client = await acp.start(claudeAgent(model.url));
    // Manual, the mode a session starts in here: Claude Code asks before it calls the tool. (Its Auto asks a classifier model the fake does not play.)
    const session = await client.newSession({ cwd: workFolder(), mode: 'default' });
    assert.deepEqual(session.servers.given, [{ name: 'restaurant', transport: 'http' }], 'Claude Code takes HTTP servers');
    let permission = '';
    let heading = '';
    prompter.push(
      (request, options) => {
        permission = sourceLabel(request.source);
        return accept({ decision: 'allow-once' })(request, options);
      },
      (request, options) => {
        heading = sourceLabel(request.source);
        return accept({ confirm: true })(request, options);
      },
    );
    const said = await reply(session, 'book it');
    const first = model.requests.find((r) => r.kind === 'turn');
    // Claude Code defers MCP tools behind its ToolSearch: the model is told their names in the request.
    assert.ok(first?.tools?.includes('mcp__restaurant__confirm_action') || first?.body?.includes('mcp__restaurant__confirm_action'), "the model was told of the served server's tool");
    assert.match(permission, /^claude · /, 'Claude Code asked to call the tool');
    assert.equal(heading, `restaurant · confirm_action, for claude in session '${session.label}'`);
    assert.match(said, /Tool said: .*accept/);
  });
});
