/**
 * What Connect an Agent… offers for each agent: the project files to write (their whole
 * new content, merged into what is there) and commands or snippets to copy. The token is
 * never written: files and commands refer to the environment variable
 * ELICITATION_HOST_MCP_TOKEN, in each agent's own syntax. Each syntax is checked against
 * the agent's documentation or source (docs/gateway.md lists them). Pure.
 *
 * Entries we wrote earlier are recognized (an address on 127.0.0.1 and a reference to our
 * variable) and replaced, so a new port or a server no longer served leaves nothing stale.
 */
import { isDeepStrictEqual } from 'node:util';
import { ConfigParseError, editJsonConfig, readJsonConfig } from './json-config-edit';
import { PERMISSION_SERVER_NAME, PERMISSION_TOOL_FOR_CLAUDE } from './permission-server';
import { replaceServerTables, type TomlTable, tomlString } from './toml-tables';
import { isRecord } from '../base/is-record';

export const TOKEN_VARIABLE = 'ELICITATION_HOST_MCP_TOKEN';
export const URL_VARIABLE = 'ELICITATION_HOST_MCP_URL';

export type AgentId = 'claude-code' | 'copilot-cli' | 'codex' | 'gemini-cli' | 'cline' | 'roo-code' | 'continue';

export const AGENTS: ReadonlyArray<{ readonly id: AgentId; readonly label: string }> = [
  { id: 'claude-code', label: 'Claude Code' },
  { id: 'codex', label: 'Codex CLI' },
  { id: 'gemini-cli', label: 'Gemini CLI' },
  { id: 'copilot-cli', label: 'GitHub Copilot CLI' },
  { id: 'cline', label: 'Cline' },
  { id: 'roo-code', label: 'Roo Code' },
  { id: 'continue', label: 'Continue' },
];

export interface SetupContext {
  /** The servers served now: configured name and endpoint address. */
  readonly servers: ReadonlyArray<{ readonly name: string; readonly url: string }>;
  readonly permissionHookUrl?: string;
  readonly permissionServerUrl?: string;
  /** The current text of a workspace file (path relative to the folder), undefined when absent. */
  read(path: string): string | undefined;
  /**
   * Why a workspace file may not be written, in words after its name (it leads outside the
   * workspace folder: config-path.ts); undefined when it may. Such a file is neither read
   * nor written: its entries are offered as a snippet instead.
   */
  refuse?(path: string): string | undefined;
  /**
   * The editor's own MCP client reads `<folder>/.mcp.json` (VS Code 1.139 does, 1.103 does
   * not): entries there would reach its agent a second time, without the token.
   */
  readonly editorReadsDotMcpJson?: boolean;
}

export interface FileChange {
  readonly kind: 'file';
  /** Relative to the workspace folder, with `/`. */
  readonly path: string;
  readonly before: string | undefined;
  readonly content: string;
  /** Entries of someone else's that this replaces (same name): the person should see it. */
  readonly replaced: readonly string[];
}

export interface Snippet {
  readonly kind: 'snippet';
  readonly title: string;
  readonly language: 'shell' | 'json' | 'toml' | 'yaml';
  readonly text: string;
  /**
   * The text refers to the token as `${ELICITATION_HOST_MCP_TOKEN}` but the agent does not
   * read variables there: Copy puts the token itself into the clipboard (never on screen).
   */
  readonly copyWithToken: boolean;
  /** A shell command that does the step itself: offered to run in a terminal, where the token variable is set. */
  readonly runInTerminal?: boolean;
}

export interface AgentSetup {
  readonly agent: AgentId;
  readonly label: string;
  readonly files: readonly FileChange[];
  readonly snippets: readonly Snippet[];
  readonly notes: readonly string[];
  /** Why a file could not be prepared (it does not parse...): shown instead of writing it. */
  readonly problems: readonly string[];
}

/** What every agent needs for the token to reach it. */
const TERMINAL_NOTE = `Start it from a VS Code terminal, where ${TOKEN_VARIABLE} is set, or set ${TOKEN_VARIABLE} in its environment yourself.`;
/** Our entries: served on loopback by us, with our variable somewhere in them. */
const OUR_ADDRESS = /^http:\/\/127\.0\.0\.1:\d+\//;

/**
 * Entry names for the servers, the same for every agent: letters, digits and `-` only
 * (Codex and Claude Code refuse other characters; Gemini CLI misreads `_` in tool names).
 */
export function entryNames(servers: SetupContext['servers']): string[] {
  const taken = new Set<string>([PERMISSION_SERVER_NAME]);
  return servers.map(({ name }) => {
    const base =
      name
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 48) || 'server';
    let entry = base;
    for (let n = 2; taken.has(entry.toLowerCase()); n++) entry = `${base}-${n}`;
    taken.add(entry.toLowerCase());
    return entry;
  });
}

function isOurs(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  const address = [entry.url, entry.httpUrl].find((u): u is string => typeof u === 'string');
  return address !== undefined && OUR_ADDRESS.test(address) && JSON.stringify(entry).includes(TOKEN_VARIABLE);
}

/**
 * A JSON file with a `mcpServers` object: our entries set, our stale ones removed,
 * foreign ones with a name we need replaced (and reported).
 */
function mcpServersFile(ctx: SetupContext, path: string, entry: (url: string) => Record<string, unknown>): FileChange {
  const before = ctx.read(path);
  const current = readJsonConfig(before, path);
  const existing = isRecord(current.mcpServers) ? current.mcpServers : {};
  const names = entryNames(ctx.servers);
  const wanted = new Map(names.map((name, i) => [name, entry(ctx.servers[i].url)]));
  const changes: Array<readonly [ReadonlyArray<string>, unknown]> = [];
  const replaced: string[] = [];
  for (const [name, value] of Object.entries(existing)) {
    if (wanted.has(name)) {
      if (!isOurs(value)) replaced.push(name);
    } else if (isOurs(value)) {
      changes.push([['mcpServers', name], undefined]);
    }
  }
  for (const [name, value] of wanted) changes.push([['mcpServers', name], value]);
  // Nothing to change leaves the text as it is (an edit would still reformat its end).
  const content = changes.length === 0 && before !== undefined ? before : editJsonConfig(before, changes);
  return { kind: 'file', path, before, content, replaced };
}

/** The entry Claude Code and Copilot CLI both read from `.mcp.json` (Claude Code drops the `tools` key Copilot needs). */
function dotMcpEntry(url: string): Record<string, unknown> {
  return { type: 'http', url, headers: { Authorization: `Bearer \${${TOKEN_VARIABLE}}` }, tools: ['*'] };
}

/** Our PermissionRequest hook: an http hook to our address that sends our variable. */
function isOurHook(hook: unknown): hook is Record<string, unknown> {
  return isRecord(hook) && hook.type === 'http' && typeof hook.url === 'string' && OUR_ADDRESS.test(hook.url) && JSON.stringify(hook).includes(TOKEN_VARIABLE);
}

/**
 * Our hook in `.claude/settings.local.json`, edited hook by hook so the person's own entries
 * stay: other matchers, and hooks they added beside ours in a group. Ours is updated where
 * it is (keys they added to it kept), stale copies of it removed, and a group left with
 * nothing but ours goes with it; without one, our group is added after theirs.
 */
function hookSettingsFile(ctx: SetupContext, hookUrl: string): FileChange {
  const path = '.claude/settings.local.json';
  const before = ctx.read(path);
  const current = readJsonConfig(before, path);
  const ours = { type: 'http', url: hookUrl, headers: { Authorization: `Bearer $${TOKEN_VARIABLE}` }, allowedEnvVars: [TOKEN_VARIABLE] };
  const hooks = isRecord(current.hooks) ? current.hooks : {};
  const list = ['hooks', 'PermissionRequest'];
  if (!Array.isArray(hooks.PermissionRequest)) {
    return { kind: 'file', path, before, content: editJsonConfig(before, [[list, [{ matcher: '*', hooks: [ours] }]]]), replaced: [] };
  }
  const groups: unknown[] = hooks.PermissionRequest;
  const hooksOf = (group: unknown): unknown[] => (isRecord(group) && Array.isArray(group.hooks) ? group.hooks : []);
  // Our hooks in document order: the first is kept and updated, the rest are stale copies.
  const [keep, ...stale] = groups.flatMap((group, g) => hooksOf(group).flatMap((hook, h) => (isOurHook(hook) ? [{ g, h, hook }] : [])));
  const changes: Array<readonly [ReadonlyArray<string | number>, unknown]> = [];
  if (!keep) {
    changes.push([[...list, groups.length], { matcher: '*', hooks: [ours] }]);
  } else {
    const updated = { ...keep.hook, ...ours };
    if (!isDeepStrictEqual(updated, keep.hook)) changes.push([[...list, keep.g, 'hooks', keep.h], updated]);
  }
  // Last first, so each removal leaves the indexes before it as they were.
  const removedGroups = new Set<number>();
  for (const { g, h } of stale.reverse()) {
    if (g !== keep.g && hooksOf(groups[g]).every(isOurHook)) {
      if (!removedGroups.has(g)) changes.push([[...list, g], undefined]);
      removedGroups.add(g);
    } else {
      changes.push([[...list, g, 'hooks', h], undefined]);
    }
  }
  const content = changes.length === 0 && before !== undefined ? before : editJsonConfig(before, changes);
  return { kind: 'file', path, before, content, replaced: [] };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Our entries taken out of a `.mcp.json` the editor also reads; nothing when there is no such file. */
function withoutOurEntries(ctx: SetupContext, path: string): FileChange | undefined {
  return ctx.read(path) === undefined ? undefined : mcpServersFile({ ...ctx, servers: [] }, path, dotMcpEntry);
}

function claudeCode(ctx: SetupContext, out: Builder): void {
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

function copilotCli(ctx: SetupContext, out: Builder): void {
  out.file(() => mcpServersFile(ctx, '.mcp.json', dotMcpEntry));
  out.note('Copilot CLI reads .mcp.json in a folder you trusted; Claude Code reads the same entries.');
  if (ctx.editorReadsDotMcpJson) {
    out.note("VS Code's own agent reads .mcp.json too: it lists these servers a second time, and cannot reach them (it has no token).");
  }
}

function codex(ctx: SetupContext, out: Builder): void {
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

function geminiCli(ctx: SetupContext, out: Builder): void {
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

function rooCode(ctx: SetupContext, out: Builder): void {
  out.file(() => mcpServersFile(ctx, '.roo/mcp.json', (url) => ({ type: 'streamable-http', url, headers: { Authorization: `Bearer \${env:${TOKEN_VARIABLE}}` } })));
  out.note(`Roo Code runs inside VS Code and reads \${env:${TOKEN_VARIABLE}} from VS Code's extension host, where Elicitation Host sets it.`);
}

function cline(ctx: SetupContext, out: Builder): void {
  const names = entryNames(ctx.servers);
  const servers = Object.fromEntries(
    ctx.servers.map((s, i) => [names[i], { type: 'streamableHttp', url: s.url, headers: { Authorization: `Bearer \${${TOKEN_VARIABLE}}` }, timeout: 3600 }]),
  );
  out.snippet({ title: "Paste into Cline's MCP settings (MCP Servers › Configure)", language: 'json', text: JSON.stringify({ mcpServers: servers }, null, 2), copyWithToken: true });
  out.note('Cline keeps its servers in its own settings, outside the workspace, and reads no variables there: Copy puts the token in. Copy again after Rotate Token.');
  out.note('The timeout (seconds) gives you time to answer before Cline gives up on a call.');
}

function continueDev(ctx: SetupContext, out: Builder): void {
  const path = '.continue/mcpServers/elicitation-host.yaml';
  const entries = ctx.servers.map(
    (s) =>
      `  - name: ${JSON.stringify(s.name)}\n    type: streamable-http\n    url: ${JSON.stringify(s.url)}\n    requestOptions:\n      headers:\n        Authorization: ${JSON.stringify(`Bearer \${{ secrets.${TOKEN_VARIABLE} }}`)}`,
  );
  const content = `# Written by Elicitation Host: the servers it serves to agents. Rewritten by Connect an Agent…\nname: Elicitation Host\nversion: 0.0.1\nschema: v1\nmcpServers:${entries.length > 0 ? `\n${entries.join('\n')}` : ' []'}\n`;
  out.file(() => ({ kind: 'file', path, before: ctx.read(path), content, replaced: [] }));
  out.note(`Continue finds secrets.${TOKEN_VARIABLE} in its .env files or in VS Code's extension host, where Elicitation Host sets it.`);
}

const BUILDERS: Record<AgentId, (ctx: SetupContext, out: Builder) => void> = {
  'claude-code': claudeCode,
  'copilot-cli': copilotCli,
  codex,
  'gemini-cli': geminiCli,
  'roo-code': rooCode,
  cline,
  continue: continueDev,
};

const LANGUAGES: Record<string, Snippet['language']> = { json: 'json', toml: 'toml', yaml: 'yaml' };

class Builder {
  readonly files: FileChange[] = [];
  readonly snippets: Snippet[] = [];
  readonly notes: string[] = [];
  readonly problems: string[] = [];

  constructor(private readonly refusal: (path: string) => string | undefined) {}

  file(make: () => FileChange | undefined): void {
    try {
      const change = make();
      if (!change || change.content === change.before) return;
      const why = this.refusal(change.path);
      if (why === undefined) {
        this.files.push(change);
        return;
      }
      // Made from nothing (the file there was not read): the entries to merge by hand.
      this.problems.push(`${change.path} ${why}: not written. Its entries are offered to copy instead, to put in that file yourself.`);
      this.snippet({ title: `Put this in ${change.path} yourself`, language: LANGUAGES[change.path.split('.').pop()!] ?? 'json', text: change.content, copyWithToken: false });
    } catch (error) {
      if (!(error instanceof ConfigParseError)) throw error;
      this.problems.push(error.message);
    }
  }

  snippet(snippet: Omit<Snippet, 'kind'>): void {
    this.snippets.push({ kind: 'snippet', ...snippet });
  }

  note(text: string): void {
    this.notes.push(text);
  }
}

/** Everything Connect an Agent… offers for `agent`. */
export function agentSetup(agent: AgentId, ctx: SetupContext): AgentSetup {
  const refusals = new Map<string, string | undefined>();
  const refusal = (path: string): string | undefined => {
    if (!refusals.has(path)) refusals.set(path, ctx.refuse?.(path));
    return refusals.get(path);
  };
  const out = new Builder(refusal);
  // A file that leads elsewhere is not read: what it holds there is not the workspace's to show in a diff.
  BUILDERS[agent]({ ...ctx, read: (path) => (refusal(path) === undefined ? ctx.read(path) : undefined) }, out);
  if (ctx.servers.length === 0) out.note('No server is served to agents yet: turn on Serve to agents for one in the Servers view.');
  if (agent !== 'roo-code' && agent !== 'cline' && agent !== 'continue') out.note(TERMINAL_NOTE);
  const label = AGENTS.find((a) => a.id === agent)!.label;
  return { agent, label, files: out.files, snippets: out.snippets, notes: out.notes, problems: out.problems };
}
