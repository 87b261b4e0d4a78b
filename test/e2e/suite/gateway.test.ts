/**
 * The gateway inside a real VS Code: it listens on loopback and tells terminals where, it
 * refuses what lacks the token the way VS Code's client needs (400, never 401), a rotated
 * token replaces the old one, and VS Code's own tool API reaches a served server's tool
 * through our MCP server definition provider.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';

const EXTENSION_ID = 'elicitation-host.elicitation-host';
/** From the runner's user settings (test/e2e/context.ts): served to VS Code's agent by default. */
const SERVED = 'user-fixture';

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'suite-probe', version: '1' } },
});

function initialize(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: INITIALIZE });
}

describe('the gateway in a real VS Code', () => {
  let base: string;
  let endpoint: string;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    base = await until('the gateway to listen (ELICITATION_HOST_MCP_URL)', () => process.env.ELICITATION_HOST_MCP_URL);
    endpoint = `${base}/mcp/${SERVED}`;
  });

  it('listens on 127.0.0.1 and puts its address and token in the extension host environment', () => {
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok((process.env.ELICITATION_HOST_MCP_TOKEN ?? '').length >= 32, 'a long random token');
  });

  it('a request without the token, or with a wrong one, is refused with 400 (a 401 would start OAuth in VS Code); a foreign Origin with 403', async () => {
    assert.equal((await initialize(endpoint, {})).status, 400);
    assert.equal((await initialize(endpoint, { authorization: 'Bearer not-the-token' })).status, 400);
    const token = process.env.ELICITATION_HOST_MCP_TOKEN!;
    assert.equal((await initialize(endpoint, { authorization: `Bearer ${token}`, origin: 'https://evil.example' })).status, 403);
    const ok = await initialize(endpoint, { authorization: `Bearer ${token}` });
    assert.equal(ok.status, 200, await ok.text());
  });

  it('Rotate Gateway Token: the old token is refused from then on, the new one accepted', async () => {
    const old = process.env.ELICITATION_HOST_MCP_TOKEN!;
    await vscode.commands.executeCommand('elicitationHost.rotateGatewayToken');
    const fresh = await until('a new token', () => (process.env.ELICITATION_HOST_MCP_TOKEN !== old ? process.env.ELICITATION_HOST_MCP_TOKEN : undefined));
    assert.equal((await initialize(endpoint, { authorization: `Bearer ${old}` })).status, 400);
    assert.equal((await initialize(endpoint, { authorization: `Bearer ${fresh}` })).status, 200);
  });

  // VS Code's MCP client runs only in a trusted workspace; the untrusted run checks the rest.
  // VS Code 1.103 (the minimum) starts the served server but lists none of its tools in
  // vscode.lm.tools outside chat: this runs from 1.104 on (checked on 1.139).
  const [major, minor] = vscode.version.split('.').map(Number);
  if (process.env.ELICITATION_HOST_EXPECT_TRUSTED !== 'false' && (major > 1 || minor > 103)) {
    it("VS Code's tool API calls a served server's tool through the gateway, and lists it once", async () => {
      await vscode.commands.executeCommand('workbench.mcp.startServer', `${EXTENSION_ID}/${SERVED}`);
      const echo = await until(`VS Code to list ${SERVED}'s echo tool (vscode.lm.tools: ${vscode.lm.tools.map((t) => t.name).join(', ')})`, () => {
        const found = vscode.lm.tools.filter((t) => t.name.includes(SERVED.replace('-', '_')) || t.name.includes(SERVED));
        const echoes = found.filter((t) => t.name.endsWith('_echo'));
        return echoes.length > 0 ? echoes : undefined;
      });
      assert.equal(echo.length, 1, `one echo tool for ${SERVED}: ${echo.map((t) => t.name).join(', ')}`);
      const result = await vscode.lm.invokeTool(echo[0].name, { input: { text: 'through the gateway' }, toolInvocationToken: undefined });
      const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      assert.match(text, /through the gateway/);
    });
  }
});
