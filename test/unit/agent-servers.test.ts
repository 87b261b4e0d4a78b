/**
 * The pure pieces of giving an agent session the person's servers: its own token (issued,
 * found, revoked), the guard that takes it beside the workspace's, who a question is
 * headed with, the names agents know the servers by, and where the stdio bridge may send
 * the token.
 */
import assert from 'node:assert/strict';
import { bridgeTarget } from '../../src/cli/mcp-bridge-args';
import { sourceLabel } from '../../src/elicitation/request';
import { AgentGrants } from '../../src/gateway/agent-grants';
import { checkRequest } from '../../src/gateway/request-guard';
import { agentServerName } from '../../src/gateway/session-servers';
import { sourceOf, type InFlightCall } from '../../src/mcp/connection/elicit-bridge';

describe("an agent session's servers: the pure pieces", () => {
  it('a grant is found by its token until it is revoked; no other token finds it', () => {
    const grants = new AgentGrants();
    let title = 'first words';
    const issued = grants.issue({ agent: 'claude', session: () => title });
    const other = grants.issue({ agent: 'gemini', session: () => undefined });
    assert.notEqual(issued.token, other.token);
    assert.ok(issued.token.length >= 40, 'a 256-bit random token');
    assert.equal(grants.find(issued.token)?.agent, 'claude');
    title = 'fix the tests';
    assert.equal(grants.find(issued.token)?.session(), 'fix the tests', 'the title is read when asked');
    assert.equal(grants.find('not-a-token'), undefined);
    issued.revoke();
    assert.equal(grants.find(issued.token), undefined);
    assert.equal(grants.find(other.token)?.agent, 'gemini');
  });

  it("the guard takes a session's token beside the workspace's, and says which grant it was", () => {
    const grants = new AgentGrants();
    const issued = grants.issue({ agent: 'claude', session: () => 'x' });
    const options = { port: 4711, token: () => 'workspace-token', grantFor: (t: string) => grants.find(t) };
    const headers = (token: string) => ({ host: '127.0.0.1:4711', authorization: `Bearer ${token}` });
    assert.deepEqual(checkRequest(headers('workspace-token'), options), { ok: true });
    const verdict = checkRequest(headers(issued.token), options);
    assert.ok(verdict.ok && verdict.grant?.agent === 'claude');
    issued.revoke();
    assert.equal(checkRequest(headers(issued.token), options).ok, false);
    // Host and Origin checks come first: a session's token from a web page is refused as any token is.
    assert.equal(checkRequest({ ...headers('workspace-token'), origin: 'https://evil.example' }, options).ok, false);
  });

  it("a served server's question is headed with the agent, its session and the server, when every call agrees", () => {
    const call = (agent: string, session?: string): InFlightCall =>
      ({ name: 'confirm_action', caller: { kind: 'agent', name: agent, ...(session !== undefined && { session }) } }) as unknown as InFlightCall;
    const source = sourceOf('restaurant', [call('claude', 'fix the tests')]);
    assert.equal(sourceLabel(source), "restaurant · confirm_action, for claude in session 'fix the tests'");
    assert.equal(sourceOf('restaurant', [call('claude', 'a'), call('claude', 'b')]).session, undefined, 'two sessions: none is named');
    assert.equal(sourceOf('restaurant', [call('claude', 'a'), call('gemini', 'a')]).session, undefined, 'two agents: no session either');
    assert.equal(sourceLabel(sourceOf('restaurant', [call('Claude Code')])), 'restaurant · confirm_action, for Claude Code');
    // An agent's own question names its session alone, as before.
    assert.equal(sourceLabel({ server: 'claude', requester: 'agent', tool: 'Which colour?', session: 'fix the tests' }), "claude · Which colour?, for session 'fix the tests'");
  });

  it('agents know a server by its path segment, with "." made "-" (tool names take no dots)', () => {
    assert.equal(agentServerName('/mcp/restaurant'), 'restaurant');
    assert.equal(agentServerName('/mcp/docs.example-2'), 'docs-example-2');
  });

  it('the bridge sends the token to an http address on this machine only', () => {
    const env = { ELICITATION_HOST_MCP_URL: 'http://127.0.0.1:4711' };
    assert.equal(bridgeTarget('restaurant', env).href, 'http://127.0.0.1:4711/mcp/restaurant');
    assert.equal(bridgeTarget('a b', env).href, 'http://127.0.0.1:4711/mcp/a%20b');
    assert.equal(bridgeTarget('http://localhost:9/mcp/x', {}).href, 'http://localhost:9/mcp/x');
    assert.throws(() => bridgeTarget('https://127.0.0.1:4711/mcp/x', {}), /http on this machine/);
    assert.throws(() => bridgeTarget('http://evil.example/mcp/x', {}), /not sent anywhere else/);
    assert.throws(() => bridgeTarget('restaurant', { ELICITATION_HOST_MCP_URL: 'http://10.0.0.1:4711' }), /not sent anywhere else/);
    assert.throws(() => bridgeTarget('restaurant', {}), /ELICITATION_HOST_MCP_URL is not set/);
  });
});
