/**
 * The merge code under Connect an Agent…'s recipes (gateway-recipes.ts): what a recipe is
 * given and gives back, and our entries merged into a project file's current text, so the
 * person's own entries stay. Pure.
 *
 * Entries we wrote earlier are recognized (an address on 127.0.0.1 and a reference to our
 * variable) and replaced, so a new port or a server no longer served leaves nothing stale.
 */
import { isDeepStrictEqual } from 'node:util';
import { PERMISSION_SERVER_NAME, TOKEN_VARIABLE } from './contract';
import { ConfigParseError, editJsonConfig, readJsonConfig } from './json-config-edit';
import { isRecord } from '../base/is-record';

export interface RecipeContext {
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

/** Our entries: served on loopback by us, with our variable somewhere in them. */
const OUR_ADDRESS = /^http:\/\/127\.0\.0\.1:\d+\//;

/**
 * Entry names for the servers, the same for every agent: letters, digits and `-` only
 * (Codex and Claude Code refuse other characters; Gemini CLI misreads `_` in tool names).
 */
export function entryNames(servers: RecipeContext['servers']): string[] {
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

export function isOurs(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  const address = [entry.url, entry.httpUrl].find((u): u is string => typeof u === 'string');
  return address !== undefined && OUR_ADDRESS.test(address) && JSON.stringify(entry).includes(TOKEN_VARIABLE);
}

/**
 * A JSON file with a `mcpServers` object: our entries set, our stale ones removed,
 * foreign ones with a name we need replaced (and reported).
 */
export function mcpServersFile(ctx: RecipeContext, path: string, entry: (url: string) => Record<string, unknown>, ours: (entry: unknown) => boolean = isOurs): FileChange {
  const before = ctx.read(path);
  const current = readJsonConfig(before, path);
  const existing = isRecord(current.mcpServers) ? current.mcpServers : {};
  const names = entryNames(ctx.servers);
  const wanted = new Map(names.map((name, i) => [name, entry(ctx.servers[i].url)]));
  const changes: Array<readonly [ReadonlyArray<string>, unknown]> = [];
  const replaced: string[] = [];
  for (const [name, value] of Object.entries(existing)) {
    if (wanted.has(name)) {
      if (!ours(value)) replaced.push(name);
    } else if (ours(value)) {
      changes.push([['mcpServers', name], undefined]);
    }
  }
  for (const [name, value] of wanted) changes.push([['mcpServers', name], value]);
  // Nothing to change leaves the text as it is (an edit would still reformat its end).
  const content = changes.length === 0 && before !== undefined ? before : editJsonConfig(before, changes);
  return { kind: 'file', path, before, content, replaced };
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
export function hookSettingsFile(ctx: RecipeContext, hookUrl: string): FileChange {
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

const LANGUAGES: Record<string, Snippet['language']> = { json: 'json', toml: 'toml', yaml: 'yaml' };

/** What a recipe gives: the files to write, snippets to copy, notes, and why a file could not be prepared. */
export class RecipeOutput {
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
