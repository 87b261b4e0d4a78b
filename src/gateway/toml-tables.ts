/**
 * Just enough TOML to replace Codex's `[mcp_servers.<name>]` tables in a config file and
 * leave every other line as it was: the file is cut at its table headers (outside
 * multi-line strings), whole tables are dropped or appended, nothing inside a kept
 * table is touched. Server entries written any other way (an inline table, dotted keys)
 * are not edited: the caller is told to do it by hand. Pure.
 */
import { ConfigParseError } from './json-config-edit';

export interface TomlTable {
  /** The key path of the header: `["mcp_servers", "restaurant"]`. */
  readonly path: readonly string[];
  /** `key = value` lines, values already TOML. */
  readonly entries: ReadonlyArray<readonly [string, string]>;
}

interface Segment {
  /** Undefined for the lines before the first header. */
  readonly path: readonly string[] | undefined;
  readonly lines: string[];
}

/** Splits a dotted key (`a."b.c".d`) into its parts; undefined when it is not one. */
export function parseDottedKey(text: string): string[] | undefined {
  const parts: string[] = [];
  let rest = text.trim();
  for (;;) {
    const match = /^(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*/.exec(rest);
    if (!match) return undefined;
    parts.push(match[1] ?? (match[2] !== undefined ? (JSON.parse(`"${match[2]}"`) as string) : match[3]));
    rest = rest.slice(match[0].length);
    if (rest === '') return parts;
    if (!rest.startsWith('.')) return undefined;
    rest = rest.slice(1).trimStart();
  }
}

/** A header line's key path (`[a.b]` or `[[a.b]]`), or undefined. */
function headerPath(line: string): string[] | undefined {
  const match = /^\s*\[\[?(.+?)\]\]?\s*(#.*)?$/.exec(line);
  return match ? parseDottedKey(match[1]) : undefined;
}

/** The lines of `text` grouped under their table headers; headers inside multi-line strings do not count. */
function segments(text: string): Segment[] {
  const result: Segment[] = [{ path: undefined, lines: [] }];
  let openString: '"""' | "'''" | undefined;
  for (const line of text.split('\n')) {
    const header = openString === undefined ? headerPath(line) : undefined;
    if (header) result.push({ path: header, lines: [line] });
    else result[result.length - 1].lines.push(line);
    for (const match of line.matchAll(/"""|'''/g)) {
      const quote = match[0] as '"""' | "'''";
      if (openString === undefined) openString = quote;
      else if (openString === quote) openString = undefined;
    }
  }
  return result;
}

/** TOML for a string value. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * The text with every `[mcp_servers.<name>]` table (and its sub-tables) whose name
 * `replace` returns true for removed, then `tables` appended. Throws ConfigParseError when
 * a server is declared in a way this does not edit.
 */
export function replaceServerTables(text: string | undefined, replace: (name: string, body: string) => boolean, tables: readonly TomlTable[], file: string): string {
  const kept: string[] = [];
  const newNames = new Set(tables.map((t) => t.path[1]));
  const all = segments(text ?? '');
  // A server's tables judged together: [mcp_servers.x] and its [mcp_servers.x.env] go or stay as one.
  const bodies = new Map<string, string>();
  for (const { path, lines } of all) {
    if (path && path[0] === 'mcp_servers' && path.length >= 2) bodies.set(path[1], `${bodies.get(path[1]) ?? ''}${lines.join('\n')}\n`);
  }
  const dropped = new Set([...bodies].filter(([name, body]) => replace(name, body)).map(([name]) => name));
  for (const segment of all) {
    const path = segment.path;
    if (path === undefined || (path.length === 1 && path[0] === 'mcp_servers')) {
      // Root keys and the bare [mcp_servers] table may not declare one of our servers inline.
      for (const line of segment.lines.slice(path ? 1 : 0)) {
        const key = /^\s*([^=#[\s][^=]*?)\s*=/.exec(line)?.[1];
        const parts = key === undefined ? undefined : parseDottedKey(key);
        const server = parts && (path ? parts[0] : parts[0] === 'mcp_servers' ? parts[1] : undefined);
        if (server !== undefined && newNames.has(server)) {
          throw new ConfigParseError(`${file} declares the server "${server}" with dotted keys or an inline table; change it by hand`);
        }
      }
      kept.push(...segment.lines);
      continue;
    }
    if (path[0] === 'mcp_servers' && path.length >= 2 && dropped.has(path[1])) continue;
    kept.push(...segment.lines);
  }
  while (kept.length > 0 && kept[kept.length - 1].trim() === '') kept.pop();
  const added = tables.map((t) => [`[${t.path.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : tomlString(p))).join('.')}]`, ...t.entries.map(([k, v]) => `${k} = ${v}`)].join('\n'));
  return `${[kept.join('\n'), ...added].filter((part) => part !== '').join('\n\n')}\n`;
}
