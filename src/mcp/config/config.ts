/**
 * The room `src/mcp/config/`: what the person configured, read and checked, before anything
 * starts: this file (the `mcp.json` format, and the portable `.mcp.json` one), `variables`
 * (`${workspaceFolder}`, `${env:}`, `${input:}`; the portable `${NAME}`), `duplicates` (one
 * server defined in two files) and `trust` (which servers may start in an untrusted
 * workspace). It imports nothing else of `src/mcp`.
 *
 * Server configuration in VS Code's own `mcp.json` format (JSON with comments): top-level
 * `servers` (or `mcpServers`) and `inputs`. Parsing reports every problem with its place
 * in the file, so the editor can underline it, and keeps the good servers of a file that
 * also holds a broken one.
 */
import { type Node as JsonNode, findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { isRecord } from '../../base/is-record';

export interface StdioServerConfig {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** `null` removes a variable inherited from the extension host. */
  readonly env: Readonly<Record<string, string | null>>;
  readonly envFile?: string;
  readonly cwd?: string;
}

export interface HttpServerConfig {
  /** `http` tries Streamable HTTP first and falls back to SSE; `sse` is legacy SSE only. */
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A client registered with the server's authorization server beforehand (VS Code's and Claude Code's `oauth`). */
  readonly oauth?: { readonly clientId: string; readonly clientSecret?: string };
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

/**
 * `vscode`: VS Code's own `mcp.json` (`servers`, `inputs`, `${env:NAME}`). `portable`: the
 * harness-agnostic file Claude Code, Copilot CLI and VS Code's agent host read (`.mcp.json`,
 * `~/.copilot/mcp-config.json`): `mcpServers`, `type: "local"` for stdio, `${NAME}` and
 * `${NAME:-default}` from the environment, no inputs.
 */
export type ConfigFormat = 'vscode' | 'portable';

export type ConfigSource =
  | { readonly kind: 'workspace'; readonly file: string; readonly folder: string; readonly format?: ConfigFormat }
  /** The `elicitationHost.servers` setting, or (with `file`) a file of the person's own, outside any workspace. */
  | { readonly kind: 'user'; readonly file?: string; readonly format?: ConfigFormat };

export interface ServerDefinition {
  readonly name: string;
  readonly source: ConfigSource;
  readonly config: ServerConfig;
  /** Other files that define this same server (same name, same launch): it runs once, from `source`. */
  readonly alsoIn?: readonly string[];
}

export interface InputDefinition {
  readonly type: 'promptString';
  readonly id: string;
  /**
   * Where it is defined (the mcp.json file, or "user settings"). Saved values are kept per
   * scope: another workspace's file that names the same id is asked afresh, never handed
   * a value the person gave for this one.
   */
  readonly scope: string;
  readonly description: string;
  readonly password: boolean;
  readonly default?: string;
}

export interface ConfigProblem {
  readonly message: string;
  /** Offset and length in the file's text; zero-based line and column of the start. */
  readonly offset: number;
  readonly length: number;
  readonly line: number;
  readonly column: number;
}

export interface ParsedConfig {
  readonly servers: readonly ServerDefinition[];
  readonly inputs: readonly InputDefinition[];
  readonly problems: readonly ConfigProblem[];
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart };
}

function stringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

class ProblemCollector {
  readonly problems: ConfigProblem[] = [];

  constructor(private readonly text: string) {}

  at(node: JsonNode | undefined, message: string): void {
    const offset = node?.offset ?? 0;
    const length = node?.length ?? 0;
    this.problems.push({ message, offset, length, ...position(this.text, offset) });
  }
}

/** Reads one server entry; returns undefined (with problems reported) when it is unusable. */
function readServer(
  name: string,
  value: unknown,
  report: (path: Array<string | number>, message: string) => void,
  format: ConfigFormat,
): ServerConfig | undefined {
  if (!isRecord(value)) {
    report([], `server "${name}" must be an object`);
    return undefined;
  }
  const declared = format === 'portable' && value.type === 'local' ? 'stdio' : value.type;
  const type = declared ?? (value.command !== undefined ? 'stdio' : value.url !== undefined ? 'http' : undefined);
  if (type === 'stdio') {
    if (typeof value.command !== 'string' || value.command.trim() === '') {
      report(value.command === undefined ? [] : ['command'], `server "${name}" needs a "command" (the program to start)`);
      return undefined;
    }
    if (value.args !== undefined && !(Array.isArray(value.args) && value.args.every((a) => typeof a === 'string'))) {
      report(['args'], `"args" of server "${name}" must be an array of strings`);
      return undefined;
    }
    if (value.env !== undefined && !(isRecord(value.env) && Object.values(value.env).every((v) => typeof v === 'string' || v === null || typeof v === 'number'))) {
      report(['env'], `"env" of server "${name}" must map names to strings`);
      return undefined;
    }
    for (const key of ['envFile', 'cwd'] as const) {
      if (value[key] !== undefined && typeof value[key] !== 'string') {
        report([key], `"${key}" of server "${name}" must be a string`);
        return undefined;
      }
    }
    const env = Object.fromEntries(
      Object.entries((value.env as Record<string, unknown> | undefined) ?? {}).map(([k, v]) => [k, v === null ? null : String(v)]),
    );
    return {
      type: 'stdio',
      command: value.command,
      args: (value.args as string[] | undefined) ?? [],
      env,
      ...(typeof value.envFile === 'string' && { envFile: value.envFile }),
      ...(typeof value.cwd === 'string' && { cwd: value.cwd }),
    };
  }
  if (type === 'http' || type === 'sse') {
    if (typeof value.url !== 'string') {
      report(value.url === undefined ? [] : ['url'], `server "${name}" needs a "url"`);
      return undefined;
    }
    if (value.headers !== undefined && !stringRecord(value.headers)) {
      report(['headers'], `"headers" of server "${name}" must map names to strings`);
      return undefined;
    }
    const oauth = value.oauth as Record<string, unknown> | undefined;
    if (oauth !== undefined && (typeof oauth !== 'object' || oauth === null || typeof oauth.clientId !== 'string' || (oauth.clientSecret !== undefined && typeof oauth.clientSecret !== 'string'))) {
      report(['oauth'], `"oauth" of server "${name}" must be { "clientId": string, "clientSecret"?: string } (the secret best as "\${input:...}")`);
      return undefined;
    }
    return {
      type,
      url: value.url,
      headers: (value.headers as Record<string, string> | undefined) ?? {},
      ...(oauth && { oauth: { clientId: oauth.clientId as string, ...(typeof oauth.clientSecret === 'string' && { clientSecret: oauth.clientSecret }) } }),
    };
  }
  report(value.type === undefined ? [] : ['type'], `server "${name}" has an unknown type ${JSON.stringify(value.type)}: use ${format === 'portable' ? '"stdio" (or "local"), ' : '"stdio", '}"http" or "sse"`);
  return undefined;
}

export function scopeOf(source: ConfigSource): string {
  return source.file ?? 'user settings';
}

function readInputs(value: unknown, collector: ProblemCollector, inputsNode: JsonNode | undefined, scope: string): InputDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    collector.at(inputsNode, '"inputs" must be an array');
    return [];
  }
  const inputs: InputDefinition[] = [];
  value.forEach((entry, i) => {
    const node = inputsNode ? findNodeAtLocation(inputsNode, [i]) : undefined;
    if (!isRecord(entry) || typeof entry.id !== 'string') {
      collector.at(node, 'an input needs an "id"');
      return;
    }
    if (entry.type !== 'promptString') {
      collector.at(node, `input "${entry.id}" has type ${JSON.stringify(entry.type)}; only "promptString" is supported`);
      return;
    }
    inputs.push({
      type: 'promptString',
      id: entry.id,
      scope,
      description: typeof entry.description === 'string' ? entry.description : entry.id,
      password: entry.password === true,
      ...(typeof entry.default === 'string' && { default: entry.default }),
    });
  });
  return inputs;
}

/**
 * An entry Connect an Agent… wrote for an agent to reach our own gateway (its loopback
 * address and our token's variable, or our stdio bridge): read back as a server, it would
 * serve the gateway to itself. Written out here, as the config room imports nothing above it.
 */
export function isGatewayEntry(config: ServerConfig): boolean {
  if (config.type === 'stdio') {
    const ours = (word: string): boolean => /(^|[\\/])(elicitation-host(\.cmd)?|cli\.js)$/.test(word);
    return config.args.includes('mcp-bridge') && [config.command, ...config.args].some(ours);
  }
  return /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/mcp\//.test(config.url) && JSON.stringify(config.headers).includes('ELICITATION_HOST_MCP_TOKEN');
}

/**
 * Parses the text of an `mcp.json` (VS Code's format), or of a portable file (`.mcp.json`,
 * `~/.copilot/mcp-config.json`: its servers under `mcpServers`, or, as VS Code and Copilot
 * CLI also read it, at the top level). Never throws.
 */
export function parseMcpJson(text: string, source: ConfigSource): ParsedConfig {
  const format = source.format ?? 'vscode';
  const collector = new ProblemCollector(text);
  const syntaxErrors: ParseError[] = [];
  const root = parseTree(text, syntaxErrors, { allowTrailingComma: true, disallowComments: false });
  for (const error of syntaxErrors) {
    collector.problems.push({
      message: `JSON syntax error: ${printParseErrorCode(error.error)}`,
      offset: error.offset,
      length: error.length,
      ...position(text, error.offset),
    });
  }
  if (!root) return { servers: [], inputs: [], problems: collector.problems };
  if (root.type !== 'object') {
    collector.at(root, 'mcp.json must hold an object with "servers"');
    return { servers: [], inputs: [], problems: collector.problems };
  }
  const value = getNodeValue(root) as Record<string, unknown>;
  const portable = format === 'portable';
  const key = portable ? (value.mcpServers !== undefined ? 'mcpServers' : undefined) : value.servers !== undefined ? 'servers' : value.mcpServers !== undefined ? 'mcpServers' : undefined;
  const servers: ServerDefinition[] = [];
  // A portable file without `mcpServers` holds its servers at the top level.
  if (key || portable) {
    const serversNode = key ? findNodeAtLocation(root, [key]) : root;
    const entries = key ? value[key] : value;
    if (!isRecord(entries)) {
      collector.at(serversNode, `"${key}" must be an object mapping names to servers`);
    } else {
      for (const [name, entry] of Object.entries(entries)) {
        // At the top level, `$schema` and the like are not servers.
        if (!key && name.startsWith('$')) continue;
        const node = serversNode ? findNodeAtLocation(serversNode, [name]) : undefined;
        const report = (path: Array<string | number>, message: string): void =>
          collector.at((node && path.length > 0 ? findNodeAtLocation(node, path) : undefined) ?? keyNode(node) ?? node, message);
        const config = readServer(name, entry, report, format);
        if (config && !(portable && isGatewayEntry(config))) servers.push({ name, source, config });
      }
    }
  }
  const inputs = portable ? [] : readInputs(value.inputs, collector, findNodeAtLocation(root, ['inputs']), scopeOf(source));
  return { servers, inputs, problems: collector.problems };
}

/** The property-name node of a value node, to underline `"name": {...}` by its name. */
function keyNode(valueNode: JsonNode | undefined): JsonNode | undefined {
  return valueNode?.parent?.type === 'property' ? valueNode.parent.children?.[0] : undefined;
}

/** Reads server definitions given as a settings object (the `elicitationHost.servers` setting). */
export function parseSettingsServers(value: unknown): ParsedConfig {
  return parseMcpJson(JSON.stringify({ servers: value ?? {} }, null, 2), { kind: 'user' });
}
