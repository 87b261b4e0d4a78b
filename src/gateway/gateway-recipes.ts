/**
 * Connect an Agent…'s recipes: for each agent that reaches our servers through the gateway,
 * the project files to write (their whole new content, merged into what is there:
 * recipe-merge.ts) and commands or snippets to copy. One entry of GATEWAY_RECIPES an agent.
 * The token is never written: files and commands refer to the environment variable
 * ELICITATION_HOST_MCP_TOKEN, in each agent's own syntax. Each syntax is checked against
 * the agent's documentation or source (docs/gateway.md lists them). Pure.
 *
 * Not the agents Add Agent… runs over ACP: those are src/ui/agents/acp-agent-catalog.ts.
 */
import { isRecord } from '../base/is-record';
import { PERMISSION_SERVER_NAME, PERMISSION_TOOL_FOR_CLAUDE, TOKEN_VARIABLE } from './contract';
import { entryNames, type FileChange, hookSettingsFile, isOurs, mcpServersFile, type RecipeContext, RecipeOutput, type Snippet } from './recipe-merge';
import { replaceServerTables, type TomlTable, tomlString } from './toml-tables';

/** What one recipe prepared for this workspace. */
export interface PreparedRecipe {
  readonly agent: GatewayRecipeId;
  readonly label: string;
  readonly files: readonly FileChange[];
  readonly snippets: readonly Snippet[];
  readonly notes: readonly string[];
  /** Why a file could not be prepared (it does not parse...): shown instead of writing it. */
  readonly problems: readonly string[];
}

/** What every agent that reads the terminal's environment needs for the token to reach it. */
const TERMINAL_NOTE = `Start it from a VS Code terminal, where ${TOKEN_VARIABLE} is set, or set ${TOKEN_VARIABLE} in its environment yourself.`;

/** The entry Claude Code and Copilot CLI both read from `.mcp.json` (Claude Code drops the `tools` key Copilot needs). */
function dotMcpEntry(url: string): Record<string, unknown> {
  return { type: 'http', url, headers: { Authorization: `Bearer \${${TOKEN_VARIABLE}}` }, tools: ['*'] };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Our entries taken out of a `.mcp.json` the editor also reads; nothing when there is no such file. */
function withoutOurEntries(ctx: RecipeContext, path: string): FileChange | undefined {
  return ctx.read(path) === undefined ? undefined : mcpServersFile({ ...ctx, servers: [] }, path, dotMcpEntry);
}

function claudeCode(ctx: RecipeContext, out: RecipeOutput): void {
  const names = entryNames(ctx.servers);
  if (ctx.editorReadsDotMcpJson) {
    // Local scope instead of .mcp.json: kept in ~/.claude.json, outside the workspace, where
    // the shell puts the token in (in the terminal's history the variable stays a name).
    out.file(() => withoutOurEntries(ctx, '.mcp.json'));
  } else {
    out.file(() => mcpServersFile(ctx, '.mcp.json', dotMcpEntry));
  }
  if (ctx.permissionHookUrl) {
    const hookUrl = ctx.permissionHookUrl;
    out.file(() => hookSettingsFile(ctx, hookUrl));
  }
  if (ctx.servers.length > 0 && ctx.editorReadsDotMcpJson) {
    out.snippet({
      title: 'Add the servers for you in this project (local scope, kept in ~/.claude.json)',
      language: 'shell',
      text: ctx.servers
        .map(
          (s, i) =>
            `claude mcp remove --scope local ${names[i]} >/dev/null 2>&1; claude mcp add --transport http --scope local ${names[i]} ${s.url} --header "Authorization: Bearer $${TOKEN_VARIABLE}"`,
        )
        .join('\n'),
      copyWithToken: false,
      runInTerminal: true,
    });
    out.note(
      "VS Code's own agent reads a project .mcp.json too: it would list these servers a second time, without the token, so Claude Code gets them in its local scope. Run the command again after Rotate Token.",
    );
  } else if (ctx.servers.length > 0) {
    out.snippet({
      title: 'Or add the servers for yourself only (local scope, kept in ~/.claude.json)',
      language: 'shell',
      text: ctx.servers
        .map((s, i) => `claude mcp add --transport http --scope local ${names[i]} ${s.url} --header ${shellQuote(`Authorization: Bearer \${${TOKEN_VARIABLE}}`)}`)
        .join('\n'),
      copyWithToken: false,
    });
    out.note('Claude Code asks you once to approve the servers of a project .mcp.json.');
  }
  if (ctx.permissionServerUrl) {
    const config = { mcpServers: { [PERMISSION_SERVER_NAME]: { type: 'http', url: ctx.permissionServerUrl, headers: { Authorization: `Bearer \${${TOKEN_VARIABLE}}` } } } };
    out.snippet({
      title: 'claude -p: permission prompts answered in VS Code',
      language: 'shell',
      text: `claude -p --mcp-config ${shellQuote(JSON.stringify(config))} --permission-prompt-tool ${PERMISSION_TOOL_FOR_CLAUDE} "your prompt"`,
      copyWithToken: false,
    });
  }
  out.note('The permission hook goes to .claude/settings.local.json, which stays on this machine; its questions appear in VS Code, and if nobody answers there Claude Code asks in its terminal.');
}

function copilotCli(ctx: RecipeContext, out: RecipeOutput): void {
  out.file(() => mcpServersFile(ctx, '.mcp.json', dotMcpEntry));
  out.note('Copilot CLI reads .mcp.json in a folder you trusted; Claude Code reads the same entries.');
  if (ctx.editorReadsDotMcpJson) {
    out.note("VS Code's own agent reads .mcp.json too: it lists these servers a second time, and cannot reach them (it has no token).");
  }
}

function codex(ctx: RecipeContext, out: RecipeOutput): void {
  const path = '.codex/config.toml';
  const names = entryNames(ctx.servers);
  out.file(() => {
    const before = ctx.read(path);
    const wanted = new Set(names);
    const replaced: string[] = [];
    const tables: TomlTable[] = ctx.servers.map((s, i) => ({
      path: ['mcp_servers', names[i]],
      entries: [
        ['url', tomlString(s.url)],
        ['bearer_token_env_var', tomlString(TOKEN_VARIABLE)],
      ],
    }));
    const content = replaceServerTables(
      before,
      (name, table) => {
        const ours = isOurs(table);
        if (wanted.has(name) && !ours) replaced.push(name);
        return wanted.has(name) || ours;
      },
      tables,
      path,
    );
    return { kind: 'file', path, before, content, replaced };
  });
  if (ctx.servers.length > 0) {
    out.snippet({
      title: 'Or add the servers for every project (~/.codex/config.toml)',
      language: 'shell',
      text: ctx.servers.map((s, i) => `codex mcp add ${names[i]} --url ${s.url} --bearer-token-env-var ${TOKEN_VARIABLE}`).join('\n'),
      copyWithToken: false,
    });
  }
  out.note('Codex reads .codex/config.toml only in a project you trusted.');
}

function geminiCli(ctx: RecipeContext, out: RecipeOutput): void {
  out.file(() => mcpServersFile(ctx, '.gemini/settings.json', (url) => ({ httpUrl: url, headers: { Authorization: `Bearer \${${TOKEN_VARIABLE}}` } })));
  const names = entryNames(ctx.servers);
  if (ctx.servers.length > 0) {
    out.snippet({
      title: 'Or add the servers for every project (~/.gemini/settings.json)',
      language: 'shell',
      text: ctx.servers
        .map((s, i) => `gemini mcp add --scope user --transport http --header ${shellQuote(`Authorization: Bearer \${${TOKEN_VARIABLE}}`)} ${names[i]} ${s.url}`)
        .join('\n'),
      copyWithToken: false,
    });
  }
  out.note('Gemini CLI reads .gemini/settings.json in a folder you trusted, and fills in ${…} from its environment.');
}

function rooCode(ctx: RecipeContext, out: RecipeOutput): void {
  out.file(() => mcpServersFile(ctx, '.roo/mcp.json', (url) => ({ type: 'streamable-http', url, headers: { Authorization: `Bearer \${env:${TOKEN_VARIABLE}}` } })));
  out.note(`Roo Code runs inside VS Code and reads \${env:${TOKEN_VARIABLE}} from VS Code's extension host, where Elicitation Host sets it.`);
}

function cline(ctx: RecipeContext, out: RecipeOutput): void {
  const names = entryNames(ctx.servers);
  const servers = Object.fromEntries(
    ctx.servers.map((s, i) => [names[i], { type: 'streamableHttp', url: s.url, headers: { Authorization: `Bearer \${${TOKEN_VARIABLE}}` }, timeout: 3600 }]),
  );
  out.snippet({ title: "Paste into Cline's MCP settings (MCP Servers › Configure)", language: 'json', text: JSON.stringify({ mcpServers: servers }, null, 2), copyWithToken: true });
  out.note('Cline keeps its servers in its own settings, outside the workspace, and reads no variables there: Copy puts the token in. Copy again after Rotate Token.');
  out.note('The timeout (seconds) gives you time to answer before Cline gives up on a call.');
}

function continueDev(ctx: RecipeContext, out: RecipeOutput): void {
  const path = '.continue/mcpServers/elicitation-host.yaml';
  const entries = ctx.servers.map(
    (s) =>
      `  - name: ${JSON.stringify(s.name)}\n    type: streamable-http\n    url: ${JSON.stringify(s.url)}\n    requestOptions:\n      headers:\n        Authorization: ${JSON.stringify(`Bearer \${{ secrets.${TOKEN_VARIABLE} }}`)}`,
  );
  const content = `# Written by Elicitation Host: the servers it serves to agents. Rewritten by Connect an Agent…\nname: Elicitation Host\nversion: 0.0.1\nschema: v1\nmcpServers:${entries.length > 0 ? `\n${entries.join('\n')}` : ' []'}\n`;
  out.file(() => ({ kind: 'file', path, before: ctx.read(path), content, replaced: [] }));
  out.note(`Continue finds secrets.${TOKEN_VARIABLE} in its .env files or in VS Code's extension host, where Elicitation Host sets it.`);
}

/** Our stdio bridge by the server's name (`elicitation-host mcp-bridge <server>`): no address, no token in the file. */
function isBridgeEntry(entry: unknown): boolean {
  return isRecord(entry) && entry.command === 'elicitation-host' && Array.isArray(entry.args) && entry.args[0] === 'mcp-bridge';
}

/**
 * VS Code runs a `.mcp.json` stdio server from its extension host, with that process's
 * environment, where we set the gateway's address, token and PATH: our bridge by name needs
 * nothing in the file. Claude Code and Copilot CLI started in a VS Code terminal read it too.
 */
function vsCode(ctx: RecipeContext, out: RecipeOutput): void {
  const bridge = (url: string): Record<string, unknown> => ({ type: 'stdio', command: 'elicitation-host', args: ['mcp-bridge', new URL(url).pathname.split('/').pop()!] });
  out.file(() => mcpServersFile(ctx, '.mcp.json', bridge, isBridgeEntry));
  out.note(
    "VS Code runs these through Elicitation Host's bridge, in the environment where the gateway's address and token are set; so do Claude Code and Copilot CLI started in a VS Code terminal. Turn off Serve to VS Code's Agent for these servers, or VS Code lists their tools twice. VS Code's agent host, which runs servers in a process of its own, has no token: the bridge says so.",
  );
}

interface GatewayRecipe {
  readonly id: string;
  /** The agent's name, in the pick and every message. */
  readonly label: string;
  readonly build: (ctx: RecipeContext, out: RecipeOutput) => void;
  /** It reads the token from the environment of the terminal it starts in (else from VS Code's extension host, or its own settings). */
  readonly readsTerminalEnv: boolean;
}

/** The agents Connect an Agent… offers, in the order of its pick. */
export const GATEWAY_RECIPES = [
  { id: 'claude-code', label: 'Claude Code', build: claudeCode, readsTerminalEnv: true },
  { id: 'codex', label: 'Codex CLI', build: codex, readsTerminalEnv: true },
  { id: 'gemini-cli', label: 'Gemini CLI', build: geminiCli, readsTerminalEnv: true },
  { id: 'copilot-cli', label: 'GitHub Copilot CLI', build: copilotCli, readsTerminalEnv: true },
  { id: 'cline', label: 'Cline', build: cline, readsTerminalEnv: false },
  { id: 'roo-code', label: 'Roo Code', build: rooCode, readsTerminalEnv: false },
  { id: 'continue', label: 'Continue', build: continueDev, readsTerminalEnv: false },
  // Offered from VS Code 1.140 on, whose MCP: Add Server writes .mcp.json (src/ui/gateway/connect-agent.ts).
  { id: 'vscode', label: 'VS Code (.mcp.json)', build: vsCode, readsTerminalEnv: false },
] as const satisfies readonly GatewayRecipe[];

export type GatewayRecipeId = (typeof GATEWAY_RECIPES)[number]['id'];

/** Everything Connect an Agent… offers for `agent`. */
export function prepareRecipe(agent: GatewayRecipeId, ctx: RecipeContext): PreparedRecipe {
  const recipe: GatewayRecipe = GATEWAY_RECIPES.find((r) => r.id === agent)!;
  const refusals = new Map<string, string | undefined>();
  const refusal = (path: string): string | undefined => {
    if (!refusals.has(path)) refusals.set(path, ctx.refuse?.(path));
    return refusals.get(path);
  };
  const out = new RecipeOutput(refusal);
  // A file that leads elsewhere is not read: what it holds there is not the workspace's to show in a diff.
  recipe.build({ ...ctx, read: (path) => (refusal(path) === undefined ? ctx.read(path) : undefined) }, out);
  if (ctx.servers.length === 0) out.note('No server is served to agents yet: turn on Serve to agents for one in the Servers view.');
  if (recipe.readsTerminalEnv) out.note(TERMINAL_NOTE);
  return { agent, label: recipe.label, files: out.files, snippets: out.snippets, notes: out.notes, problems: out.problems };
}
