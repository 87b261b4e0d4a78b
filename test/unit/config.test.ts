import { strict as assert } from 'node:assert';
import { parseMcpJson, parseSettingsServers, type ServerDefinition } from '../../src/mcp/config/config';
import { mayStart } from '../../src/mcp/config/trust';
import { inputIdsIn, parseEnvFile, resolveVariables, VariableError, type VariableContext } from '../../src/mcp/config/variables';

const workspace = { kind: 'workspace', file: '/ws/.vscode/mcp.json', folder: '/ws' } as const;

describe('mcp.json configuration', () => {
  it('reads stdio and http servers and inputs, with comments and trailing commas', () => {
    const text = `{
      // the fixture servers
      "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
      "servers": {
        "local": { "type": "stdio", "command": "node", "args": ["server.js"], "env": { "A": "1", "B": null }, "cwd": "\${workspaceFolder}" },
        "remote": { "type": "http", "url": "http://127.0.0.1:3000/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
        "implicit": { "command": "python3" },
        "legacy": { "type": "sse", "url": "http://127.0.0.1:3001/sse" },
      },
    }`;
    const parsed = parseMcpJson(text, workspace);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.servers.map((s) => [s.name, s.config.type]), [
      ['local', 'stdio'], ['remote', 'http'], ['implicit', 'stdio'], ['legacy', 'sse'],
    ]);
    assert.deepEqual(parsed.servers[0].config, { type: 'stdio', command: 'node', args: ['server.js'], env: { A: '1', B: null }, cwd: '${workspaceFolder}' });
    assert.deepEqual(parsed.inputs, [{ type: 'promptString', id: 'token', scope: '/ws/.vscode/mcp.json', description: 'API token', password: true }]);
    assert.deepEqual(parsed.servers[0].source, workspace);
  });

  it('accepts "mcpServers" as the top-level key', () => {
    const parsed = parseMcpJson('{"mcpServers": {"x": {"command": "node"}}}', workspace);
    assert.deepEqual(parsed.servers.map((s) => s.name), ['x']);
  });

  it('reports a syntax error with its line and column, and keeps nothing it cannot read', () => {
    const text = '{\n  "servers": {\n    "a": { "command": "node" }\n    "b": {}\n  }\n}';
    const parsed = parseMcpJson(text, workspace);
    assert.equal(parsed.problems[0].message, 'JSON syntax error: CommaExpected');
    assert.deepEqual([parsed.problems[0].line, parsed.problems[0].column], [3, 4]);
  });

  it('reports a broken server at its place and keeps the other servers', () => {
    const text = '{\n  "servers": {\n    "good": { "command": "node" },\n    "bad": { "type": "stdio", "args": "x" },\n    "odd": { "type": "ws", "url": "ws://x" },\n    "nourl": { "type": "http" }\n  }\n}';
    const parsed = parseMcpJson(text, workspace);
    assert.deepEqual(parsed.servers.map((s) => s.name), ['good']);
    assert.deepEqual(parsed.problems.map((p) => [p.message, p.line, p.column]), [
      ['server "bad" needs a "command" (the program to start)', 3, 4],
      ['server "odd" has an unknown type "ws": use "stdio", "http" or "sse"', 4, 21],
      ['server "nourl" needs a "url"', 5, 4],
    ]);
    assert.equal(text.slice(parsed.problems[1].offset, parsed.problems[1].offset + parsed.problems[1].length), '"ws"');
  });

  it('reports wrongly typed fields', () => {
    const parsed = parseMcpJson('{"servers": {"a": {"command": "n", "args": [1]}, "b": {"url": "u", "headers": {"x": 1}}, "c": 5}, "inputs": [{"id": "i", "type": "pickString"}]}', workspace);
    assert.deepEqual(parsed.problems.map((p) => p.message), [
      '"args" of server "a" must be an array of strings',
      '"headers" of server "b" must map names to strings',
      'server "c" must be an object',
      'input "i" has type "pickString"; only "promptString" is supported',
    ]);
  });

  it('an empty or non-object file is reported, not thrown', () => {
    assert.equal(parseMcpJson('', workspace).servers.length, 0);
    assert.deepEqual(parseMcpJson('[]', workspace).problems.map((p) => p.message), ['mcp.json must hold an object with "servers"']);
  });

  it('reads servers from the user setting', () => {
    const parsed = parseSettingsServers({ mine: { type: 'http', url: 'https://example.com/mcp' } });
    assert.deepEqual(parsed.servers, [{ name: 'mine', source: { kind: 'user' }, config: { type: 'http', url: 'https://example.com/mcp', headers: {} } }]);
  });
});

describe('variables', () => {
  const asked: string[] = [];
  const ctx: VariableContext = {
    workspaceFolder: '/ws',
    userHome: '/home/me',
    env: { HOME: '/home/me', TOKEN: 's3cret' },
    inputs: [{ type: 'promptString', id: 'key', scope: 'user settings', description: 'Key', password: true }],
    resolveInput: async (input) => {
      asked.push(input.id);
      return 'typed';
    },
  };

  it('substitutes workspaceFolder, userHome, env and inputs, asking each input once', async () => {
    const resolved = await resolveVariables(
      { type: 'stdio', command: '${userHome}/bin/srv', args: ['--root', '${workspaceFolder}', '${input:key}', '${input:key}'], env: { T: '${env:TOKEN}', U: '${env:UNSET}', N: null }, cwd: '${workspaceFolder}/sub' },
      ctx,
    );
    assert.deepEqual(resolved, {
      type: 'stdio', command: '/home/me/bin/srv', args: ['--root', '/ws', 'typed', 'typed'], env: { T: 's3cret', U: '', N: null }, cwd: '/ws/sub',
    });
    assert.deepEqual(asked, ['key']);
  });

  it('substitutes in urls and headers; unknown variables stay as written', async () => {
    const resolved = await resolveVariables({ type: 'http', url: 'http://h/${input:key}', headers: { A: '${unknown}' } }, ctx);
    assert.deepEqual(resolved, { type: 'http', url: 'http://h/typed', headers: { A: '${unknown}' } });
  });

  it("an http server's oauth client: its id, and its secret asked once as an input", async () => {
    const parsed = parseMcpJson(`{ "servers": { "r": { "type": "http", "url": "https://mcp.example.com/mcp", "oauth": { "clientId": "abc", "clientSecret": "\${input:key}" } } } }`, workspace);
    assert.deepEqual(parsed.problems, []);
    const config = parsed.servers[0].config;
    assert.deepEqual(inputIdsIn(config), ['key']);
    assert.deepEqual(await resolveVariables(config, ctx), { type: 'http', url: 'https://mcp.example.com/mcp', headers: {}, oauth: { clientId: 'abc', clientSecret: 'typed' } });
    const broken = parseMcpJson(`{ "servers": { "r": { "type": "http", "url": "https://x/mcp", "oauth": { "clientSecret": "s" } } } }`, workspace);
    assert.match(broken.problems[0]?.message ?? '', /"oauth" of server "r" must be \{ "clientId": string, "clientSecret"\?: string \}/);
  });

  it('names what cannot be resolved', async () => {
    await assert.rejects(resolveVariables({ type: 'http', url: '${input:nope}', headers: {} }, ctx), (e: unknown) =>
      e instanceof VariableError && e.message === '${input:nope} is used but no input with id "nope" is defined in "inputs"');
    await assert.rejects(resolveVariables({ type: 'stdio', command: '${workspaceFolder}', args: [], env: {} }, { ...ctx, workspaceFolder: undefined }), /no folder is open/);
    await assert.rejects(resolveVariables({ type: 'http', url: '${input:key}', headers: {} }, { ...ctx, resolveInput: async () => undefined }), /no value was given for input "key"/);
  });

  it('lists the inputs a configuration uses', () => {
    assert.deepEqual(inputIdsIn({ type: 'http', url: '${input:a}', headers: { x: '${input:b} ${input:a}' } }), ['a', 'b']);
  });

  it('parses env files', () => {
    assert.deepEqual(parseEnvFile('# comment\nA=1\nexport B = "two words"\nC=\'q\'\nD=x # trailing\n\nbad line\nE="a\\nb"'), {
      A: '1', B: 'two words', C: 'q', D: 'x', E: 'a\nb',
    });
  });
});

describe('workspace trust', () => {
  const def = (source: ServerDefinition['source'], type: 'stdio' | 'http'): ServerDefinition => ({
    name: 'srv',
    source,
    config: type === 'stdio' ? { type, command: 'node', args: [], env: {} } : { type, url: 'http://x', headers: {} },
  });

  it('workspace servers do not start in an untrusted workspace, and say why and how', () => {
    const refused = mayStart(def(workspace, 'stdio'), false);
    assert.ok(!refused.allowed);
    assert.match(refused.reason, /does not start until you trust the workspace \(Workspaces: Manage Workspace Trust\)/);
    assert.equal(mayStart(def(workspace, 'http'), false).allowed, false);
  });

  it('user servers run in an untrusted workspace; everything runs when trusted', () => {
    assert.equal(mayStart(def({ kind: 'user' }, 'stdio'), false).allowed, true);
    assert.equal(mayStart(def(workspace, 'stdio'), true).allowed, true);
  });
});
