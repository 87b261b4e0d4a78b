/**
 * `elicitation-host mcp-bridge` (the built runner) in front of a real gateway: an MCP client
 * over its stdio lists and calls a served server's tools, and the server's question is asked
 * here; without the token in its environment it refuses to start, and a request the gateway
 * refuses (a wrong token) is answered with the gateway's words instead of being left waiting.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sourceLabel } from '../../src/elicitation/request';
import { gatewayFixture, gatewaysPerTest, TOKEN } from '../support/gateway-harness';
import { accept, ScriptedPrompter } from '../support/scripted-prompter';
import { REPO } from '../support/servers';

const CLI = join(REPO, 'dist/cli.js');

describe('the stdio bridge to a served server (elicitation-host mcp-bridge)', function () {
  this.timeout(60_000);
  const gateways = gatewaysPerTest();
  const clients: Client[] = [];

  before(() => {
    if (!existsSync(CLI)) throw new Error('The runner is not built: run "node scripts/build.mjs" first (npm run test:integration does it).');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  });

  /** An MCP client whose server is the bridge, started with this token (or none) in its environment. */
  async function bridged(target: string, token: string | undefined, env: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'bridged-agent', version: '1.0.0' });
    const base = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && k !== 'ELICITATION_HOST_MCP_TOKEN')) as Record<string, string>;
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp-bridge', target],
        env: { ...base, ...env, ...(token !== undefined && { ELICITATION_HOST_MCP_TOKEN: token }) },
        stderr: 'pipe',
      }),
    );
    return client;
  }

  it('by name, from the window\'s address: lists the tools, calls one, and its question is asked here', async () => {
    const prompter = new ScriptedPrompter();
    const harness = await gateways.start(prompter, [gatewayFixture('restaurant')]);
    const client = await bridged('restaurant', TOKEN, { ELICITATION_HOST_MCP_URL: harness.gateway.url });
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'confirm_action'));
    let heading = '';
    prompter.push((request, options) => {
      heading = sourceLabel(request.source);
      return accept({ confirm: true })(request, options);
    });
    const result = await client.callTool({ name: 'confirm_action', arguments: { action: 'book' } });
    assert.match(JSON.stringify(result.content), /accept/);
    assert.equal(heading, 'restaurant · confirm_action, for bridged-agent');
  });

  it('a request the gateway refuses is answered with its words; without the token, or to another machine, it does not start', async () => {
    const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('restaurant')]);
    await assert.rejects(bridged(harness.gateway.servers()[0].url, 'not-the-token'), /Wrong token/);
    const noToken = spawnSync(process.execPath, [CLI, 'mcp-bridge', harness.gateway.servers()[0].url], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    assert.equal(noToken.status, 1);
    assert.match(noToken.stderr, /ELICITATION_HOST_MCP_TOKEN is not set in the environment/);
    const remote = spawnSync(process.execPath, [CLI, 'mcp-bridge', 'http://example.com/mcp/x'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ELICITATION_HOST_MCP_TOKEN: 'secret-value' } });
    assert.equal(remote.status, 1);
    assert.match(remote.stderr, /not sent anywhere else/);
    assert.doesNotMatch(remote.stderr + remote.stdout, /secret-value/);
  });
});
