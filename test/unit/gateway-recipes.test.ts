import assert from 'node:assert/strict';
import { parse as parseJsonc } from 'jsonc-parser';
import { GATEWAY_RECIPES, type GatewayRecipeId, prepareRecipe } from '../../src/gateway/gateway-recipes';
import { entryNames, type RecipeContext } from '../../src/gateway/recipe-merge';

const SERVERS = [
  { name: 'restaurant', url: 'http://127.0.0.1:4711/mcp/restaurant' },
  { name: 'My Tools_v2', url: 'http://127.0.0.1:4711/mcp/My-Tools_v2' },
];

function context(files: Record<string, string> = {}, servers = SERVERS): RecipeContext {
  return {
    servers,
    permissionHookUrl: 'http://127.0.0.1:4711/hooks/claude-code/permission-request',
    permissionServerUrl: 'http://127.0.0.1:4711/elicitation-host/mcp',
    read: (path) => files[path],
  };
}

function file(agent: GatewayRecipeId, path: string, files: Record<string, string> = {}) {
  const setup = prepareRecipe(agent, context(files));
  const change = setup.files.find((f) => f.path === path);
  assert.ok(change, `${agent} writes ${path} (got ${setup.files.map((f) => f.path).join(', ')}; problems ${setup.problems.join('; ')})`);
  return change;
}

const json = (text: string): Record<string, any> => parseJsonc(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Connect an Agent: what each agent gets', () => {
  it('entry names: letters, digits and - only, unique, never our own elicitation-host', () => {
    assert.deepEqual(entryNames([{ name: 'My Tools_v2', url: '' }, { name: 'my-tools-v2', url: '' }, { name: 'elicitation-host', url: '' }, { name: '☕', url: '' }]), [
      'My-Tools-v2',
      'my-tools-v2-2',
      'elicitation-host-2',
      'server',
    ]);
  });

  it('Claude Code: .mcp.json http entries with ${VAR} in the header, and the PermissionRequest http hook with allowedEnvVars', () => {
    const mcp = json(file('claude-code', '.mcp.json').content);
    assert.deepEqual(mcp.mcpServers.restaurant, {
      type: 'http',
      url: 'http://127.0.0.1:4711/mcp/restaurant',
      headers: { Authorization: 'Bearer ${ELICITATION_HOST_MCP_TOKEN}' },
      tools: ['*'],
    });
    const settings = json(file('claude-code', '.claude/settings.local.json').content);
    assert.deepEqual(settings.hooks.PermissionRequest, [
      {
        matcher: '*',
        hooks: [
          {
            type: 'http',
            url: 'http://127.0.0.1:4711/hooks/claude-code/permission-request',
            headers: { Authorization: 'Bearer $ELICITATION_HOST_MCP_TOKEN' },
            allowedEnvVars: ['ELICITATION_HOST_MCP_TOKEN'],
          },
        ],
      },
    ]);
    const snippets = prepareRecipe('claude-code', context()).snippets;
    assert.equal(
      snippets[0].text.split('\n')[0],
      "claude mcp add --transport http --scope local restaurant http://127.0.0.1:4711/mcp/restaurant --header 'Authorization: Bearer ${ELICITATION_HOST_MCP_TOKEN}'",
    );
    assert.match(snippets[1].text, /^claude -p --mcp-config '\{"mcpServers":\{"elicitation-host":\{"type":"http","url":"http:\/\/127\.0\.0\.1:4711\/elicitation-host\/mcp".*--permission-prompt-tool mcp__elicitation-host__permission_prompt/);
  });

  it('Claude Code where the editor reads .mcp.json too: no .mcp.json (our old entries taken out, others kept), a local-scope command to run in a terminal, the hook file as before', () => {
    const reads = (files: Record<string, string> = {}): RecipeContext => ({ ...context(files), editorReadsDotMcpJson: true });
    const fresh = prepareRecipe('claude-code', reads());
    assert.deepEqual(fresh.files.map((f) => f.path), ['.claude/settings.local.json'], 'no .mcp.json is created');
    assert.equal(fresh.snippets[0].runInTerminal, true);
    assert.equal(
      fresh.snippets[0].text.split('\n')[0],
      'claude mcp remove --scope local restaurant >/dev/null 2>&1; claude mcp add --transport http --scope local restaurant http://127.0.0.1:4711/mcp/restaurant --header "Authorization: Bearer $ELICITATION_HOST_MCP_TOKEN"',
    );
    assert.ok(fresh.notes.some((n) => n.includes('a second time')), 'the person is told why');
    const old = '{ "mcpServers": { "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }, "restaurant": { "type": "http", "url": "http://127.0.0.1:5000/mcp/restaurant", "headers": { "Authorization": "Bearer ${ELICITATION_HOST_MCP_TOKEN}" } } } }';
    const cleaned = prepareRecipe('claude-code', reads({ '.mcp.json': old })).files.find((f) => f.path === '.mcp.json');
    assert.ok(cleaned, 'our old entries are taken out of .mcp.json');
    assert.deepEqual(Object.keys(json(cleaned.content).mcpServers), ['github']);
    const foreignOnly = '{ "mcpServers": { "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" } } }';
    assert.equal(prepareRecipe('claude-code', reads({ '.mcp.json': foreignOnly })).files.find((f) => f.path === '.mcp.json'), undefined, 'a file without our entries is left alone');
    assert.ok(prepareRecipe('copilot-cli', reads()).notes.some((n) => n.includes('a second time')), 'Copilot CLI is warned');
  });

  it('merges into existing files: other servers, hooks and comments stay; our stale entries go; a foreign entry with our name is reported', () => {
    const before = `{
  // team servers
  "mcpServers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },
    "restaurant": { "command": "node", "args": ["restaurant.js"] },
    "old": { "type": "http", "url": "http://127.0.0.1:5000/mcp/old", "headers": { "Authorization": "Bearer \${ELICITATION_HOST_MCP_TOKEN}" } }
  }
}
`;
    const change = file('claude-code', '.mcp.json', { '.mcp.json': before });
    assert.match(change.content, /\/\/ team servers/);
    const servers = json(change.content).mcpServers;
    assert.deepEqual(Object.keys(servers).sort(), ['My-Tools-v2', 'github', 'restaurant']);
    assert.equal(servers.restaurant.url, 'http://127.0.0.1:4711/mcp/restaurant');
    assert.deepEqual(change.replaced, ['restaurant']);
    assert.equal(change.before, before);

    const hooks = `{ "hooks": { "PermissionRequest": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "notify.sh" } ] },
      { "matcher": "*", "hooks": [ { "type": "http", "url": "http://127.0.0.1:5000/hooks/claude-code/permission-request", "headers": { "Authorization": "Bearer $ELICITATION_HOST_MCP_TOKEN" } } ] } ] },
      "permissions": { "allow": ["Bash(npm test)"] } }`;
    const settings = json(file('claude-code', '.claude/settings.local.json', { '.claude/settings.local.json': hooks }).content);
    assert.equal(settings.hooks.PermissionRequest.length, 2);
    assert.equal(settings.hooks.PermissionRequest[0].hooks[0].command, 'notify.sh');
    assert.equal(settings.hooks.PermissionRequest[1].hooks[0].url, 'http://127.0.0.1:4711/hooks/claude-code/permission-request');
    assert.deepEqual(settings.permissions, { allow: ['Bash(npm test)'] });
  });

  describe("Claude Code's PermissionRequest hook: the person's own entries stay", () => {
    const PATH = '.claude/settings.local.json';
    const OUR_NEW = {
      type: 'http',
      url: 'http://127.0.0.1:4711/hooks/claude-code/permission-request',
      headers: { Authorization: 'Bearer $ELICITATION_HOST_MCP_TOKEN' },
      allowedEnvVars: ['ELICITATION_HOST_MCP_TOKEN'],
    };
    const ourOld = { ...OUR_NEW, url: 'http://127.0.0.1:5000/hooks/claude-code/permission-request' };
    const theirs = (command: string): Record<string, string> => ({ type: 'command', command });
    const groupsAfter = (before: string): unknown => json(file('claude-code', PATH, { [PATH]: before }).content).hooks.PermissionRequest;

    it('our edit: a hook the person added to our group, and the other matchers, survive; ours is updated in its place, keeping what they added to it', () => {
      const before = `{
  "hooks": {
    "PermissionRequest": [
      // mine
      { "matcher": "Bash", "hooks": [${JSON.stringify(theirs('notify.sh'))}] },
      { "matcher": "*", "hooks": [${JSON.stringify(theirs('log-permission.sh'))}, ${JSON.stringify({ ...ourOld, timeout: 120 })}] }
    ]
  }
}
`;
      const change = file('claude-code', PATH, { [PATH]: before });
      assert.match(change.content, /\/\/ mine/, 'comments in the hook list stay');
      assert.deepEqual(json(change.content).hooks.PermissionRequest, [
        { matcher: 'Bash', hooks: [theirs('notify.sh')] },
        { matcher: '*', hooks: [theirs('log-permission.sh'), { ...OUR_NEW, timeout: 120 }] },
      ]);
      assert.ok(!prepareRecipe('claude-code', context({ [PATH]: change.content })).files.some((f) => f.path === PATH), 'not offered again once written');
    });

    it("our removal: stale copies of our hook go, the person's hooks beside them stay, a group left with nothing of theirs goes", () => {
      const before = JSON.stringify({
        hooks: {
          PermissionRequest: [
            { matcher: 'Edit', hooks: [ourOld, theirs('lint.sh')] },
            { matcher: '*', hooks: [ourOld] },
            { matcher: 'Write', hooks: [theirs('backup.sh'), ourOld] },
          ],
          PreToolUse: [{ matcher: '*', hooks: [theirs('audit.sh')] }],
        },
      });
      assert.deepEqual(groupsAfter(before), [
        { matcher: 'Edit', hooks: [OUR_NEW, theirs('lint.sh')] },
        { matcher: 'Write', hooks: [theirs('backup.sh')] },
      ]);
      assert.deepEqual(json(file('claude-code', PATH, { [PATH]: before }).content).hooks.PreToolUse, [{ matcher: '*', hooks: [theirs('audit.sh')] }]);
    });

    it('no hook of ours yet: our group is added after theirs', () => {
      assert.deepEqual(groupsAfter(JSON.stringify({ hooks: { PermissionRequest: [{ matcher: '*', hooks: [theirs('log.sh')] }] } })), [
        { matcher: '*', hooks: [theirs('log.sh')] },
        { matcher: '*', hooks: [OUR_NEW] },
      ]);
    });
  });

  it('a file that does not parse is not rewritten: the problem is reported instead', () => {
    const setup = prepareRecipe('claude-code', context({ '.mcp.json': '{ "mcpServers": { ' }));
    assert.ok(!setup.files.some((f) => f.path === '.mcp.json'));
    assert.match(setup.problems[0], /\.mcp\.json is not valid JSON/);
  });

  it('a file already set up is not offered again', () => {
    const first = file('claude-code', '.mcp.json');
    const again = prepareRecipe('claude-code', context({ '.mcp.json': first.content }));
    assert.ok(!again.files.some((f) => f.path === '.mcp.json'));
  });

  it('Copilot CLI: the same .mcp.json entries (type http, tools ["*"])', () => {
    assert.equal(file('copilot-cli', '.mcp.json').content, file('claude-code', '.mcp.json').content);
  });

  it('Codex: [mcp_servers.NAME] tables with url and bearer_token_env_var, merged into the TOML file', () => {
    // What stays, as it was: the person's settings, another server, a profile.
    const head = 'model = "o4"\napproval_policy = "on-request"\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n';
    const profile = '[profiles.fast]\nmodel = "o4-mini"\n';
    const ours = (name: string, path: string): string => `[mcp_servers.${name}]\nurl = "http://127.0.0.1:4711/mcp/${path}"\nbearer_token_env_var = "ELICITATION_HOST_MCP_TOKEN"\n`;
    const before = [
      head,
      '[mcp_servers.old]\nurl = "http://127.0.0.1:5000/mcp/old"\nbearer_token_env_var = "ELICITATION_HOST_MCP_TOKEN"\n',
      '[mcp_servers.old.tools.search]\napproval_mode = "approve"\n',
      // A foreign server with our name, and a multi-line string that looks like a header.
      '[mcp_servers.restaurant]\nurl = "https://restaurant.example/mcp"\nnotes = """\n[mcp_servers.not_a_header]\n"""\n',
      profile,
    ].join('\n');
    const change = file('codex', '.codex/config.toml', { '.codex/config.toml': before });
    assert.equal(change.content, [head, profile, ours('restaurant', 'restaurant'), ours('My-Tools-v2', 'My-Tools_v2')].join('\n'));
    assert.deepEqual(change.replaced, ['restaurant']);
    assert.equal(prepareRecipe('codex', context()).snippets[0].text.split('\n')[0], 'codex mcp add restaurant --url http://127.0.0.1:4711/mcp/restaurant --bearer-token-env-var ELICITATION_HOST_MCP_TOKEN');
  });

  it('Codex: a server declared with dotted keys is left for the person to change', () => {
    const setup = prepareRecipe('codex', context({ '.codex/config.toml': 'mcp_servers.restaurant.url = "https://x"\n' }));
    assert.equal(setup.files.length, 0);
    assert.match(setup.problems[0], /declares the server "restaurant" with dotted keys/);
  });

  it('Gemini CLI: .gemini/settings.json mcpServers with httpUrl (url would mean SSE) and headers', () => {
    const settings = json(file('gemini-cli', '.gemini/settings.json', { '.gemini/settings.json': '{ "theme": "GitHub" }' }).content);
    assert.equal(settings.theme, 'GitHub');
    assert.deepEqual(settings.mcpServers['My-Tools-v2'], { httpUrl: 'http://127.0.0.1:4711/mcp/My-Tools_v2', headers: { Authorization: 'Bearer ${ELICITATION_HOST_MCP_TOKEN}' } });
    assert.match(prepareRecipe('gemini-cli', context()).snippets[0].text, /^gemini mcp add --scope user --transport http --header 'Authorization: Bearer \$\{ELICITATION_HOST_MCP_TOKEN\}' restaurant http:\/\/127\.0\.0\.1:4711\/mcp\/restaurant$/m);
  });

  it('Roo Code: .roo/mcp.json with type streamable-http and ${env:VAR}', () => {
    assert.deepEqual(json(file('roo-code', '.roo/mcp.json').content).mcpServers.restaurant, {
      type: 'streamable-http',
      url: 'http://127.0.0.1:4711/mcp/restaurant',
      headers: { Authorization: 'Bearer ${env:ELICITATION_HOST_MCP_TOKEN}' },
    });
  });

  it('Cline: a snippet with type streamableHttp, copied with the token (Cline reads no variables)', () => {
    const setup = prepareRecipe('cline', context());
    assert.equal(setup.files.length, 0);
    const snippet = setup.snippets[0];
    assert.equal(snippet.copyWithToken, true);
    assert.deepEqual(JSON.parse(snippet.text).mcpServers.restaurant, {
      type: 'streamableHttp',
      url: 'http://127.0.0.1:4711/mcp/restaurant',
      headers: { Authorization: 'Bearer ${ELICITATION_HOST_MCP_TOKEN}' },
      timeout: 3600,
    });
  });

  it('Continue: a block file in .continue/mcpServers with streamable-http and requestOptions.headers', () => {
    const content = file('continue', '.continue/mcpServers/elicitation-host.yaml').content;
    assert.match(content, /^name: Elicitation Host\nversion: 0\.0\.1\nschema: v1\nmcpServers:\n {2}- name: "restaurant"\n {4}type: streamable-http\n {4}url: "http:\/\/127\.0\.0\.1:4711\/mcp\/restaurant"\n {4}requestOptions:\n {6}headers:\n {8}Authorization: "Bearer \$\{\{ secrets\.ELICITATION_HOST_MCP_TOKEN \}\}"$/m);
  });

  it('VS Code (from 1.140): .mcp.json stdio entries running our bridge by server name, no address and no token; its stale ones go, the HTTP ones of Claude Code stay', () => {
    const mine = '{ "mcpServers": { "old": { "command": "elicitation-host", "args": ["mcp-bridge", "old"] }, "mine": { "command": "node" } } }';
    const mcp = json(file('vscode', '.mcp.json', { '.mcp.json': mine }).content);
    assert.deepEqual(mcp.mcpServers, {
      mine: { command: 'node' },
      restaurant: { type: 'stdio', command: 'elicitation-host', args: ['mcp-bridge', 'restaurant'] },
      'My-Tools-v2': { type: 'stdio', command: 'elicitation-host', args: ['mcp-bridge', 'My-Tools_v2'] },
    });
    const setup = prepareRecipe('vscode', context());
    assert.ok(setup.notes.some((n) => n.includes('Serve to VS Code') && n.includes('twice')), setup.notes.join(' '));
    // Claude Code in VS Code takes out only its own HTTP entries, not VS Code's.
    const claude = prepareRecipe('claude-code', { ...context({ '.mcp.json': JSON.stringify(mcp) }), editorReadsDotMcpJson: true });
    assert.equal(claude.files.find((f) => f.path === '.mcp.json'), undefined);
  });

  it('an agent that reads the terminal\'s environment is told where to start; one that reads VS Code\'s or its own settings is not', () => {
    const terminal = /Start it from a VS Code terminal, where ELICITATION_HOST_MCP_TOKEN is set/;
    assert.deepEqual(
      GATEWAY_RECIPES.map(({ id }) => [id, prepareRecipe(id, context()).notes.some((n) => terminal.test(n))]),
      [['claude-code', true], ['codex', true], ['gemini-cli', true], ['copilot-cli', true], ['cline', false], ['roo-code', false], ['continue', false], ['vscode', false]],
    );
  });

  it('no agent ever gets a token, only a reference to the variable', () => {
    for (const { id } of GATEWAY_RECIPES) {
      const setup = prepareRecipe(id, context());
      const texts = [...setup.files.map((f) => f.content), ...setup.snippets.map((s) => s.text)];
      assert.ok(texts.length > 0, id);
      // VS Code's bridge entries name no address and no token: the bridge reads both from the environment VS Code runs it in.
      for (const text of texts) {
        if (id === 'vscode') assert.doesNotMatch(text, /Bearer|127\.0\.0\.1/, id);
        else assert.match(text, /ELICITATION_HOST_MCP_TOKEN/, id);
      }
    }
  });
});
