/**
 * What the gateway refuses before any MCP handling: requests without the workspace's
 * token (400, never 401/403, and nothing happens upstream), from a foreign Origin or to
 * a foreign Host (403), and what it never sends (CORS headers, OAuth metadata).
 */
import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
import { ScriptedPrompter } from '../support/scripted-prompter';
import { gatewayFixture, type GatewayHarness, startGateway, TOKEN } from '../support/gateway-harness';
import { requireFixtures } from '../support/servers';

interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function raw(port: number, path: string, headers: Record<string, string>, body?: string, method = body === undefined ? 'GET' : 'POST'): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'clear_completed', arguments: { count: 1 } } });

describe('gateway: security before MCP', function () {
  this.timeout(30_000);
  let harness: GatewayHarness;
  let prompter: ScriptedPrompter;
  let port: number;
  before(async () => {
    requireFixtures();
    prompter = new ScriptedPrompter();
    harness = await startGateway(prompter, [gatewayFixture('todos')]);
    port = harness.gateway.port;
  });
  after(() => harness.close());

  const host = (): string => `127.0.0.1:${port}`;

  it('listens on 127.0.0.1 only', () => {
    assert.match(harness.gateway.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('a request without the token, or with a wrong one, gets 400 with a reason and reaches no server', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`]) {
      for (const body of [INITIALIZE, CALL]) {
        const reply = await raw(port, '/mcp/todos', { host: host(), ...(authorization && { authorization }) }, body);
        assert.equal(reply.status, 400, `${authorization} ${body}`);
        assert.equal(reply.headers['www-authenticate'], undefined);
        const error = (JSON.parse(reply.body) as { error: { message: string } }).error;
        assert.match(error.message, /token/);
        assert.ok(!error.message.includes(TOKEN));
      }
    }
    assert.equal(prompter.asked.length, 0);
    assert.equal(harness.connections[0].connection.state, 'stopped', 'the upstream server was never even started');
  });

  it('a foreign Origin or Host gets 403, even with the right token (DNS rebinding, web pages)', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const headers of [
      { host: host(), origin: 'https://evil.example' } as Record<string, string>,
      { host: host(), origin: 'null' },
      { host: `evil.example:${port}` },
      { host: `127.0.0.1:${port + 1}` },
    ]) {
      const reply = await raw(port, '/mcp/todos', { ...auth, ...headers }, INITIALIZE);
      assert.equal(reply.status, 403, JSON.stringify(headers));
    }
    const preflight = await raw(port, '/mcp/todos', { host: host(), origin: 'https://evil.example', 'access-control-request-method': 'POST' }, undefined, 'OPTIONS');
    assert.equal(preflight.status, 403);
    assert.equal(harness.connections[0].connection.state, 'stopped');
  });

  it('never sends CORS headers and publishes no OAuth metadata', async () => {
    const auth = { authorization: `Bearer ${TOKEN}`, host: host() };
    const ok = await raw(port, '/mcp/todos', auth, INITIALIZE);
    assert.equal(ok.status, 200);
    for (const reply of [ok, await raw(port, '/.well-known/oauth-protected-resource', auth), await raw(port, '/.well-known/oauth-authorization-server', { host: host() })]) {
      assert.deepEqual(Object.keys(reply.headers).filter((h) => h.startsWith('access-control-')), []);
    }
    assert.equal((await raw(port, '/.well-known/oauth-protected-resource', auth)).status, 404);
    assert.equal((await raw(port, '/.well-known/oauth-authorization-server', { host: host() })).status, 400);
  });

  it('does not require an MCP-Protocol-Version header (VS Code sends none)', async () => {
    const headers = { authorization: `Bearer ${TOKEN}`, host: host() };
    const reply = await raw(port, '/mcp/todos', headers, INITIALIZE);
    assert.equal(reply.status, 200);
    const session = reply.headers['mcp-session-id'] as string;
    assert.ok(session);
    const initialized = await raw(port, '/mcp/todos', { ...headers, 'mcp-session-id': session }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    assert.equal(initialized.status, 202);
    const list = await raw(port, '/mcp/todos', { ...headers, 'mcp-session-id': session }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    assert.equal(list.status, 200, list.body);
    assert.match(list.body, /clear_completed/);
  });

  it('refuses an oversized body with 413 before parsing it', async () => {
    const reply = await raw(port, '/mcp/todos', { authorization: `Bearer ${TOKEN}`, host: host() }, `"${'x'.repeat(5 * 1024 * 1024)}"`);
    assert.equal(reply.status, 413);
  });

  it('an SDK client with the wrong token fails to connect with a message that says so', async () => {
    await assert.rejects(harness.agent('todos', { token: 'stale' }), (error: Error) => /token/i.test(String(error.message) + String((error as { cause?: unknown }).cause)));
  });
});
