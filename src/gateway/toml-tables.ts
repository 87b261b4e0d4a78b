/**
 * Replaces Codex's `[mcp_servers.<name>]` tables in a config file and leaves every other
 * line as it was (comments too): the file is cut at its table headers, whole tables are
 * dropped or appended, nothing inside a kept table is touched. Which lines are headers,
 * and what each names, is decided by the TOML parser (smol-toml) rather than by a second
 * reading of TOML's strings and comments of our own: a `"""` in a comment or a header-like
 * line in a multi-line string or array cannot mislead it. The result is parsed again and
 * must differ from the file only in the servers replaced, or it is not offered. Server
 * entries written any other way (an inline table, dotted keys) are not edited: the caller
 * is told to do it by hand. No I/O.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse, TomlError } from 'smol-toml';
import { ConfigParseError } from './json-config-edit';
import { isRecord } from '../base/is-record';

export interface TomlTable {
  /** The key path of the header: `["mcp_servers", "restaurant"]`. */
  readonly path: readonly string[];
  /** `key = value` lines, values already TOML. */
  readonly entries: ReadonlyArray<readonly [string, string]>;
}

type Toml = Record<string, unknown>;

interface Segment {
  /** Undefined for the lines before the first header. */
  readonly path: readonly string[] | undefined;
  readonly lines: readonly string[];
}

/** TOML for a string value. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

function parseToml(text: string, file: string): Toml {
  try {
    return parse(text) as Toml;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // The first line only: the rest quotes the file.
    const reason = error.message.split('\n')[0].replace(/^Invalid TOML document: /, '');
    throw new ConfigParseError(`${file} is not valid TOML (line ${error.line}, column ${error.column}: ${reason}); fix it, then try again`);
  }
}

/** The key path a header names: `[a."b.c"]` parses to `{a: {"b.c": {}}}`, `[[a.b]]` to `{a: {b: [{}]}}`. */
function headerPath(line: string): string[] {
  const path: string[] = [];
  let node: unknown = parse(line.replace(/\r$/, ''));
  for (;;) {
    if (Array.isArray(node)) node = node[0];
    if (!isRecord(node)) return path;
    const keys = Object.keys(node);
    if (keys.length !== 1) return path;
    path.push(keys[0]);
    node = node[keys[0]];
  }
}

/**
 * Which lines are table headers. A line starting with `[` may instead be inside a
 * multi-line string or array; a table put just before it tells them apart: it is a table
 * of the file only when the line is at the top level, where a `[` line is a header.
 */
function headerLines(lines: readonly string[], root: Toml): number[] {
  const candidates = lines.flatMap((line, i) => (/^\s*\[/.test(line) ? [i] : []));
  let base = 'elicitation-host-probe';
  while (Object.keys(root).some((key) => key.startsWith(base))) base += '-';
  const probed = (at: readonly number[]): Toml | undefined => {
    const marked = new Set(at);
    const text = lines.flatMap((line, i) => (marked.has(i) ? [`[${base}-${i}]`, line] : [line])).join('\n');
    try {
      return parse(text) as Toml;
    } catch {
      // A probe inside a multi-line array or inline table is not TOML there.
      return undefined;
    }
  };
  // One parse for all; only a `[` line inside an array breaks it, then one parse each.
  const all = probed(candidates);
  if (all) return candidates.filter((i) => `${base}-${i}` in all);
  return candidates.filter((i) => {
    const one = probed([i]);
    return one !== undefined && `${base}-${i}` in one;
  });
}

function segments(lines: readonly string[], root: Toml): Segment[] {
  const starts = headerLines(lines, root);
  const result: Segment[] = [{ path: undefined, lines: lines.slice(0, starts[0] ?? lines.length) }];
  starts.forEach((start, n) => result.push({ path: headerPath(lines[start]), lines: lines.slice(start, starts[n + 1] ?? lines.length) }));
  return result;
}

/** Comment lines at the end of a dropped table: they introduce what follows, so they stay. */
function trailingComments(lines: readonly string[]): string[] {
  let start = lines.length;
  while (start > 0 && /^\s*(#.*)?\r?$/.test(lines[start - 1])) start--;
  const tail = lines.slice(start);
  return tail.some((line) => line.trim().startsWith('#')) ? tail : [];
}

const serverOf = (path: readonly string[] | undefined): string | undefined => (path && path.length >= 2 && path[0] === 'mcp_servers' ? path[1] : undefined);

function tableText(table: TomlTable, eol: string): string {
  const header = `[${table.path.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : tomlString(p))).join('.')}]`;
  return [header, ...table.entries.map(([k, v]) => `${k} = ${v}`)].join(eol);
}

/**
 * The text with every `[mcp_servers.<name>]` table (and its sub-tables) whose name
 * `replace` returns true for (given the server's parsed table) removed, then `tables`
 * appended. Throws ConfigParseError when the file is not TOML, when a server is declared
 * in a way this does not edit, or when the edit would change more than those servers.
 */
export function replaceServerTables(text: string | undefined, replace: (name: string, table: Toml) => boolean, tables: readonly TomlTable[], file: string): string {
  const before = text ?? '';
  const original = parseToml(before, file);
  const servers = isRecord(original.mcp_servers) ? original.mcp_servers : {};
  const lines = before.split('\n');
  const all = segments(lines, original);
  const ownHeader = new Set(all.filter((s) => s.path?.length === 2).map((s) => serverOf(s.path)));
  const byHand = (name: string): ConfigParseError => new ConfigParseError(`${file} declares the server "${name}" with dotted keys or an inline table; change it by hand`);
  for (const table of tables) {
    const name = table.path[1];
    if (Object.hasOwn(servers, name) && !ownHeader.has(name)) throw byHand(name);
  }
  // Judged on what the parser read, so a server's [mcp_servers.x.env] goes or stays with it.
  const dropped = new Set(Object.keys(servers).filter((name) => ownHeader.has(name) && isRecord(servers[name]) && replace(name, servers[name])));

  const kept: string[] = [];
  for (const segment of all) {
    const server = serverOf(segment.path);
    if (server !== undefined && dropped.has(server)) kept.push(...trailingComments(segment.lines));
    else kept.push(...segment.lines);
  }
  while (kept.length > 0 && kept[kept.length - 1].trim() === '') kept.pop();
  if (kept.length > 0) kept[kept.length - 1] = kept[kept.length - 1].replace(/\r$/, '');
  const eol = before.includes('\r\n') ? '\r\n' : '\n';
  const added = tables.map((t) => tableText(t, eol));
  const result = `${[kept.join('\n'), ...added].filter((part) => part !== '').join(eol + eol)}${eol}`;

  // What the file must read as now: the same, with those servers replaced.
  const expected = parseToml(before, file);
  if (isRecord(expected.mcp_servers)) for (const name of dropped) delete expected.mcp_servers[name];
  const addedServers = (parse(added.join(eol)) as Toml).mcp_servers;
  if (isRecord(addedServers)) {
    if (isRecord(expected.mcp_servers)) Object.assign(expected.mcp_servers, addedServers);
    else expected.mcp_servers = addedServers;
  }
  let actual: Toml;
  try {
    actual = parse(result) as Toml;
  } catch {
    actual = {};
  }
  // With every server gone, an [mcp_servers] table nobody wrote is no change.
  for (const value of [expected, actual]) if (isRecord(value.mcp_servers) && Object.keys(value.mcp_servers).length === 0) delete value.mcp_servers;
  if (!isDeepStrictEqual(actual, expected)) {
    // A server's keys partly outside its tables (dotted keys beside an [mcp_servers.x.env], say): left whole, for the person.
    throw new ConfigParseError(`${file} could not be changed without changing more than the servers' own tables; change it by hand`);
  }
  return result;
}
