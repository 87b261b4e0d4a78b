/**
 * One server defined in two files appears once. People keep the same server in VS Code's
 * `.vscode/mcp.json` and in the portable `.mcp.json` that Claude Code and Copilot CLI read (or
 * in their own `~/.copilot/mcp-config.json` and our setting): the same name with the same
 * launch (type, command, arguments, environment, working directory; or URL and headers) is one
 * server, run once, that says every file it is in. The same name with a different launch is
 * two servers, both listed with their files (the gateway tells their addresses apart), never
 * one silently hiding the other: which of two different servers the person meant is not ours
 * to guess.
 *
 * Which file it runs from: the person's own (the setting, then `~/.copilot/mcp-config.json`)
 * before a workspace's (`.vscode/mcp.json`, then `.mcp.json`), so a workspace file that copies
 * a server the person already has does not make it wait for workspace trust; it runs nothing
 * the person had not configured themselves. Pure.
 */
import { type ConfigSource, type ParsedConfig, scopeOf, type ServerDefinition } from './config';

export interface SourceConfig {
  readonly source: ConfigSource;
  readonly parsed: ParsedConfig;
}

/** Lower runs first: the person's own files, then VS Code's format before the portable one. */
function rank(source: ConfigSource): number {
  return (source.kind === 'user' ? 0 : 2) + (source.format === 'portable' ? 1 : 0);
}

/** What makes two definitions the same server. Variables count as written, in their own file's syntax. */
function identity(definition: ServerDefinition): string {
  const { config, source } = definition;
  const text = JSON.stringify(config);
  // `${X}` means an environment variable in a portable file and nothing in VS Code's: the same text is not the same launch.
  const dialect = text.includes('${') ? (source.format ?? 'vscode') : '';
  return JSON.stringify([definition.name, dialect, config.type === 'stdio' ? [config.type, config.command, config.args, config.env, config.envFile ?? null, config.cwd ?? null] : [config.type, config.url, config.headers, config.oauth ?? null]]);
}

/**
 * The sources with each duplicate kept in one of them (marked with the others' files in
 * `alsoIn`) and taken out of the rest. Problems and inputs stay with their own file.
 */
export function withoutDuplicates(sources: readonly SourceConfig[]): SourceConfig[] {
  const order = sources.map((s, i) => ({ s, i })).sort((a, b) => rank(a.s.source) - rank(b.s.source) || a.i - b.i);
  const first = new Map<string, ServerDefinition>();
  const others = new Map<string, string[]>();
  const dropped = new Set<ServerDefinition>();
  for (const { s } of order) {
    for (const definition of s.parsed.servers) {
      const key = identity(definition);
      if (!first.has(key)) {
        first.set(key, definition);
        continue;
      }
      dropped.add(definition);
      others.set(key, [...(others.get(key) ?? []), scopeOf(definition.source)]);
    }
  }
  return sources.map(({ source, parsed }) => ({
    source,
    parsed: {
      ...parsed,
      servers: parsed.servers
        .filter((d) => !dropped.has(d))
        .map((d) => {
          const alsoIn = others.get(identity(d));
          return alsoIn ? { ...d, alsoIn } : d;
        }),
    },
  }));
}
