/**
 * Readying an agent's first request (Gateway.prepare, called as VS Code's client is about to
 * connect): the served server starts before the agent's first request asks for its tools, and
 * an agent connecting afterwards is served as usual.
 */
import { strict as assert } from 'node:assert';
import { ScriptedPrompter } from '../support/scripted-prompter';
import { gatewayFixture, gatewaysPerTest } from '../support/gateway-harness';
import { requireFixtures } from '../support/servers';
import { waitUntil } from '../support/wait';

describe('gateway: readying the first request', function () {
  this.timeout(30_000);
  const gateways = gatewaysPerTest();
  before(() => requireFixtures());

  it('starts the served server at that path before any request, and the agent is served as usual', async () => {
    const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('restaurant')]);
    const { connection } = harness.connections[0];
    assert.equal(connection.state, 'stopped');
    const served = harness.gateway.servers().find((s) => s.name === 'restaurant');
    assert.ok(served);
    harness.gateway.prepare(served.path);
    await waitUntil('the served server to be running', () => connection.state === 'running', 20_000);
    const agent = await harness.agent('restaurant');
    assert.ok((await agent.listTools()).tools.some((t) => t.name === 'clear_completed'));
  });

  it('a path that serves nothing starts nothing', async () => {
    const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('restaurant')]);
    harness.gateway.prepare('/mcp/nothing-here');
    harness.gateway.prepare();
    assert.equal(harness.connections[0].connection.state, 'stopped');
  });
});
