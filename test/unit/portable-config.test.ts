/**
 * The portable MCP configuration (a workspace's `.mcp.json`, the person's
 * `~/.copilot/mcp-config.json`): read beside VS Code's `mcp.json`, its variables as Claude
 * Code and Copilot CLI expand them, our own gateway's entries left out, and a server that
 * two files define alike kept once, with where else it is.
 */
import { strict as assert } from 'node:assert';
import { type ConfigSource, isGatewayEntry, parseMcpJson, parseSettingsServers, scopeOf } from '../../src/mcp/config/config';
import { withoutDuplicates } from '../../src/mcp/config/duplicates';
import { mayStart } from '../../src/mcp/config/trust';
import { resolveVariables, type VariableContext } from '../../src/mcp/config/variables';

const dotMcp: ConfigSource = { kind: 'workspace', file: '/ws/.mcp.json', folder: '/ws', format: 'portable' };
const vscodeJson: ConfigSource = { kind: 'workspace', file: '/ws/.vscode/mcp.json', folder: '/ws' };
const copilot: ConfigSource = { kind: 'user', file: '/home/me/.copilot/mcp-config.json', format: 'portable' };

describe('the portable MCP configuration (.mcp.json, ~/.copilot/mcp-config.json)', () => {
  it('reads mcpServers: stdio (type "local" or none), http and sse; Copilot\'s "tools" and unknown keys are ignored', () => {
    const parsed = parseMcpJson(
      JSON.stringify({
        mcpServers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { A: '1' } },
          serena: { type: 'local', command: 'uvx', args: ['serena'], tools: ['*'] },
          github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' }, tools: ['*'] },
          docs: { type: 'sse', url: 'https://docs.example/sse' },
        },
      }),
      dotMcp,
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.servers.map((s) => [s.name, s.config.type]), [['memory', 'stdio'], ['serena', 'stdio'], ['github', 'http'], ['docs', 'sse']]);
    assert.deepEqual(parsed.servers[1].config, { type: 'stdio', command: 'uvx', args: ['serena'], env: {} });
    assert.deepEqual(parsed.inputs, [], 'the portable format has no inputs');
  });

  it('reads servers at the top level too (as VS Code and Copilot CLI do), and reports a broken one at its place', () => {
    const parsed = parseMcpJson('{\n  "$schema": "x",\n  "one": { "command": "node" },\n  "two": { "type": "ftp" }\n}', dotMcp);
    assert.deepEqual(parsed.servers.map((s) => s.name), ['one']);
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0].message, /server "two" has an unknown type "ftp": use "stdio" \(or "local"\), "http" or "sse"/);
    assert.equal(parsed.problems[0].line, 3);
    // VS Code's own format still wants its key: a top-level server there is no server.
    assert.deepEqual(parseMcpJson('{"one": {"command": "node"}}', vscodeJson).servers, []);
  });

  it("leaves out the entries Connect an Agent wrote for agents to reach our gateway: read back, they would serve the gateway to itself", () => {
    const parsed = parseMcpJson(
      JSON.stringify({
        mcpServers: {
          restaurant: { type: 'http', url: 'http://127.0.0.1:4711/mcp/restaurant', headers: { Authorization: 'Bearer ${ELICITATION_HOST_MCP_TOKEN}' }, tools: ['*'] },
          bridged: { command: 'elicitation-host', args: ['mcp-bridge', 'restaurant'] },
          local: { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
        },
      }),
      dotMcp,
    );
    assert.deepEqual(parsed.servers.map((s) => s.name), ['local']);
    assert.equal(isGatewayEntry({ type: 'stdio', command: '/usr/bin/node', args: ['/ext/dist/cli.js', 'mcp-bridge', 'http://127.0.0.1:1/mcp/x'], env: {} }), true);
    assert.equal(isGatewayEntry({ type: 'stdio', command: 'node', args: ['bridge.js', 'mcp-bridge'], env: {} }), false);
  });

  it("expands ${NAME} and ${NAME:-default} from the environment, names an unset one, and never gives out the gateway's token", async () => {
    const ctx: VariableContext = { userHome: '/home/me', env: { KEY: 'k3y', EMPTY: '', ELICITATION_HOST_MCP_TOKEN: 'the-token' }, inputs: [], resolveInput: async () => undefined, portable: true };
    const resolved = await resolveVariables(
      { type: 'stdio', command: 'srv', args: ['${KEY}', '${MISSING:-fallback}', '${EMPTY:-used}', '${EMPTY}'], env: { K: 'x${KEY}y' } },
      ctx,
    );
    assert.deepEqual(resolved, { type: 'stdio', command: 'srv', args: ['k3y', 'fallback', 'used', ''], env: { K: 'xk3yy' } });
    await assert.rejects(resolveVariables({ type: 'http', url: 'https://h/${MISSING}', headers: {} }, ctx), /\$\{MISSING\} is used but MISSING is not set in the environment/);
    await assert.rejects(resolveVariables({ type: 'http', url: 'https://evil.example', headers: { A: '${ELICITATION_HOST_MCP_TOKEN}' } }, ctx), /gateway token: it is not given to a server/);
    // VS Code's own syntax is VS Code's: in a portable file `${env:KEY}` stays as written, and `${workspaceFolder}` is a variable like any (Claude Code reads it so).
    const asWritten = await resolveVariables({ type: 'stdio', command: '${env:KEY}', args: [], env: {} }, ctx);
    assert.deepEqual(asWritten, { type: 'stdio', command: '${env:KEY}', args: [], env: {} });
    await assert.rejects(resolveVariables({ type: 'stdio', command: 'x', args: ['${workspaceFolder}'], env: {} }, ctx), /workspaceFolder is not set in the environment/);
    await assert.rejects(resolveVariables({ type: 'stdio', command: 'x', args: ['${env:ELICITATION_HOST_MCP_TOKEN}'], env: {} }, { ...ctx, portable: false }), /gateway token/);
  });

  it("a workspace's .mcp.json starts nothing untrusted; the person's own file runs as the setting does", () => {
    const [fromWorkspace] = parseMcpJson('{"mcpServers": {"x": {"command": "node"}}}', dotMcp).servers;
    const [fromHome] = parseMcpJson('{"mcpServers": {"x": {"command": "node"}}}', copilot).servers;
    assert.equal(mayStart(fromWorkspace, false).allowed, false);
    assert.equal(mayStart(fromHome, false).allowed, true);
    assert.equal(scopeOf(copilot), '/home/me/.copilot/mcp-config.json');
    assert.equal(scopeOf({ kind: 'user' }), 'user settings');
  });
});

describe('one server defined in two files', () => {
  const memory = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] };

  it('the same name and launch is one server, from the first file by precedence, saying where else it is', () => {
    const sources = [
      { source: vscodeJson, parsed: parseMcpJson(JSON.stringify({ servers: { memory: { type: 'stdio', ...memory } } }), vscodeJson) },
      { source: dotMcp, parsed: parseMcpJson(JSON.stringify({ mcpServers: { memory } }), dotMcp) },
    ];
    const merged = withoutDuplicates(sources);
    assert.deepEqual(merged[0].parsed.servers.map((s) => [s.name, s.alsoIn]), [['memory', ['/ws/.mcp.json']]]);
    assert.deepEqual(merged[1].parsed.servers, [], '.mcp.json keeps nothing of it');
  });

  it("the person's own file goes first: a workspace that copies their server does not make it wait for trust", () => {
    const settings = parseSettingsServers({ memory: { type: 'stdio', ...memory } });
    const merged = withoutDuplicates([
      { source: dotMcp, parsed: parseMcpJson(JSON.stringify({ mcpServers: { memory } }), dotMcp) },
      { source: copilot, parsed: parseMcpJson(JSON.stringify({ mcpServers: { memory } }), copilot) },
      { source: { kind: 'user' }, parsed: settings },
    ]);
    const kept = merged.flatMap((m) => m.parsed.servers);
    assert.equal(kept.length, 1);
    assert.deepEqual(kept[0].source, { kind: 'user' });
    assert.deepEqual(kept[0].alsoIn, ['/home/me/.copilot/mcp-config.json', '/ws/.mcp.json']);
    assert.equal(mayStart(kept[0], false).allowed, true);
  });

  it('the same name with another launch is two servers, each with its file; variables count in their own syntax', () => {
    const merged = withoutDuplicates([
      { source: vscodeJson, parsed: parseMcpJson(JSON.stringify({ servers: { memory: { ...memory, env: { K: '${KEY}' } } } }), vscodeJson) },
      { source: dotMcp, parsed: parseMcpJson(JSON.stringify({ mcpServers: { memory: { ...memory, env: { K: '${KEY}' } } } }), dotMcp) },
      { source: copilot, parsed: parseMcpJson(JSON.stringify({ mcpServers: { memory: { ...memory, args: ['-y', 'other'] } } }), copilot) },
    ]);
    assert.deepEqual(merged.map((m) => m.parsed.servers.map((s) => [s.name, s.alsoIn ?? []])), [[['memory', []]], [['memory', []]], [['memory', []]]]);
  });
});
