/**
 * The room `src/mcp/servers/`: every configured server at once: this file (the manager) and
 * `upstream` (one server as the gateway's port, made over any source of a connection, so it
 * does not know the manager). The top of `src/mcp` holds what every room shares: `ports`
 * (what hosts implement), `errors`, `tool-info`, `tool-args`, `result-format`, `tool-consent`,
 * `create-broker`.
 *
 * All configured servers: definitions from every `mcp.json` and the user setting, one
 * connection each, their lifecycle (start on first use or at activation, stop, restart,
 * restart on a changed definition, stop on removal) and workspace trust. No `vscode`
 * here: the UI layer feeds it file texts and settings, and renders what it reports.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ConfigProblem, ConfigSource, InputDefinition, ParsedConfig, ServerDefinition } from '../config/config';
import { ServerConnection } from '../connection/connection';
import { CallError } from '../errors';
import { errorMessage } from '../../base/error-message';
import { Listeners } from '../../base/listeners';
import type { CallOptions, ConnectionDeps, ListKind, ServerLog } from '../ports';
import { mayStart } from '../config/trust';
import { originOf, type Upstream, upstreamOver } from './upstream';
import { parseEnvFile, resolveVariables, type VariableContext, VariableError } from '../config/variables';

export interface ManagerDeps extends Omit<ConnectionDeps, 'log' | 'secrets'> {
  logFor(serverName: string): ServerLog;
  workspaceTrusted(): boolean;
  /** Servers to start as soon as they are known (the `elicitationHost.autoStart` setting). */
  autoStart(serverName: string): boolean;
  readonly userHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The first workspace folder, for user-defined servers that use `${workspaceFolder}`. */
  firstWorkspaceFolder(): string | undefined;
  resolveInput: VariableContext['resolveInput'];
  readFile(path: string): Promise<string>;
}

/** A server as the views show it, whether or not it has a connection. */
export interface ServerEntry {
  readonly id: string;
  /** Replaced in place when only where else it is defined changes (`alsoIn`): that does not restart it. */
  definition: ServerDefinition;
  readonly inputs: readonly InputDefinition[];
  connection: ServerConnection | undefined;
  /** Why it may not start (workspace trust), shown instead of a state. */
  blocked: string | undefined;
  /** The last failure to resolve or start, when there is no connection to say it. */
  failure: string | undefined;
}

export interface LoadedSource {
  readonly source: ConfigSource;
  readonly parsed: ParsedConfig;
}

function sourceKey(source: ConfigSource): string {
  return source.file ?? 'user';
}

/** The definition as it launches: the other files that also define it do not change what runs. */
function launchOf(definition: ServerDefinition): string {
  const { alsoIn: _alsoIn, ...launch } = definition;
  return JSON.stringify(launch);
}

export function serverId(definition: ServerDefinition): string {
  return `${sourceKey(definition.source)}#${definition.name}`;
}

/**
 * One connection per server id, always: a start first stops whatever connection the entry
 * had (an error with a reconnection armed included), concurrent starts share one, and a
 * stop, a replaced definition or `stopAll` ends a start still resolving its variables.
 */
export class ServerManager {
  readonly onDidChange = new Listeners<void>();
  /** A call to any server started or ended. */
  readonly onCallsChanged = new Listeners<void>();
  /** A server's list changed (it said so, or it started with a new one). */
  readonly onListChanged = new Listeners<{ readonly id: string; readonly kind: ListKind }>();
  private readonly entries = new Map<string, ServerEntry>();
  /** The start in progress of each entry: concurrent starts share it. */
  private readonly starting = new Map<ServerEntry, Promise<ServerConnection>>();
  /** Bumped whenever an entry is stopped or replaced: a start that sees it move ends. */
  private readonly epochs = new WeakMap<ServerEntry, number>();
  private readonly problemsBySource = new Map<string, { source: ConfigSource; problems: readonly ConfigProblem[] }>();
  /** One upstream object per server id: the gateway tells its servers apart by identity. */
  private readonly upstreams = new Map<string, Upstream>();

  constructor(private readonly deps: ManagerDeps) {}

  get servers(): readonly ServerEntry[] {
    return [...this.entries.values()];
  }

  /** The servers the gateway serves: every one workspace trust does not hold back. */
  get servable(): readonly ServerEntry[] {
    return this.servers.filter((e) => !e.blocked);
  }

  /** Configuration problems per file (user settings under `user`). */
  get problems(): ReadonlyMap<string, { source: ConfigSource; problems: readonly ConfigProblem[] }> {
    return this.problemsBySource;
  }

  find(idOrName: string): ServerEntry | undefined {
    return this.entries.get(idOrName) ?? this.servers.find((e) => e.definition.name === idOrName);
  }

  /**
   * Replaces the definitions of the given sources (a file changed, the setting changed).
   * A changed definition restarts its running server; a removed one stops. Resolves once
   * the servers it starts have started (or failed); `onKnown` is called before, as soon as
   * the new definitions are in place.
   */
  async update(loaded: readonly LoadedSource[], onKnown?: () => void): Promise<void> {
    const touched = new Set(loaded.map((l) => sourceKey(l.source)));
    const incoming = new Map<string, { definition: ServerDefinition; inputs: readonly InputDefinition[] }>();
    for (const { source, parsed } of loaded) {
      this.problemsBySource.set(sourceKey(source), { source, problems: parsed.problems });
      for (const definition of parsed.servers) incoming.set(serverId(definition), { definition, inputs: parsed.inputs });
    }
    const work: Array<Promise<unknown>> = [];
    for (const [id, entry] of this.entries) {
      if (!touched.has(sourceKey(entry.definition.source)) || incoming.has(id)) continue;
      this.entries.delete(id);
      this.upstreams.delete(id);
      work.push(this.stopEntry(entry));
    }
    for (const [id, { definition, inputs }] of incoming) {
      const existing = this.entries.get(id);
      if (existing && launchOf(existing.definition) === launchOf(definition) && JSON.stringify(existing.inputs) === JSON.stringify(inputs)) {
        existing.definition = definition;
        continue;
      }
      const wasRunning = existing !== undefined && (this.starting.has(existing) || existing.connection?.state === 'running' || existing.connection?.state === 'starting');
      if (existing) await this.stopEntry(existing);
      const entry: ServerEntry = { id, definition, inputs, connection: undefined, blocked: undefined, failure: undefined };
      this.entries.set(id, entry);
      this.refreshTrust(entry);
      if ((wasRunning || this.deps.autoStart(definition.name)) && !entry.blocked) {
        work.push(this.start(id).catch(() => undefined));
      }
    }
    this.onDidChange.fire();
    onKnown?.();
    await Promise.all(work);
  }

  /** Re-evaluates workspace trust (it was granted): blocked servers may now start. */
  async trustChanged(): Promise<void> {
    const work: Array<Promise<unknown>> = [];
    for (const entry of this.entries.values()) {
      const wasBlocked = entry.blocked !== undefined;
      this.refreshTrust(entry);
      if (wasBlocked && !entry.blocked && this.deps.autoStart(entry.definition.name)) work.push(this.start(entry.id).catch(() => undefined));
    }
    this.onDidChange.fire();
    await Promise.all(work);
  }

  private refreshTrust(entry: ServerEntry): void {
    const permission = mayStart(entry.definition, this.deps.workspaceTrusted());
    entry.blocked = permission.allowed ? undefined : permission.reason;
  }

  async start(id: string): Promise<ServerConnection> {
    const entry = this.require(id);
    this.refreshTrust(entry);
    if (entry.blocked) throw new CallError(entry.blocked);
    if (entry.connection?.state === 'running') return entry.connection;
    const pending = this.starting.get(entry);
    if (pending) return pending;
    const start = this.startEntry(entry).finally(() => {
      if (this.starting.get(entry) === start) this.starting.delete(entry);
    });
    this.starting.set(entry, start);
    return start;
  }

  private async startEntry(entry: ServerEntry): Promise<ServerConnection> {
    const epoch = this.epochOf(entry);
    const stopped = (): CallError => new CallError(`${entry.definition.name} was stopped before it finished starting`);
    const previous = entry.connection;
    // Reconnecting by itself: its own start is the one to wait for.
    if (previous?.state === 'starting') return this.waitUntilSettled(previous);
    // One connection per server id: the last one (stopped, or in error with a reconnection armed) ends first.
    if (previous) await previous.stop();
    if (this.epochOf(entry) !== epoch) throw stopped();
    entry.failure = undefined;
    let resolved: { definition: ServerDefinition; secrets: readonly string[] };
    try {
      resolved = await this.resolve(entry);
    } catch (error) {
      if (this.epochOf(entry) !== epoch) throw stopped();
      entry.failure = errorMessage(error);
      this.deps.logFor(entry.definition.name).error(entry.failure);
      this.onDidChange.fire();
      throw new CallError(entry.failure);
    }
    if (this.epochOf(entry) !== epoch) throw stopped();
    const connection = new ServerConnection(resolved.definition, { ...this.deps, log: this.deps.logFor(entry.definition.name), secrets: resolved.secrets });
    entry.connection = connection;
    connection.onDidChange.add(() => this.onDidChange.fire());
    connection.onCallsChanged.add(() => this.onCallsChanged.fire());
    connection.onListChanged.add((kind) => {
      if (entry.connection === connection) this.onListChanged.fire({ id: entry.id, kind });
    });
    await connection.start();
    // A server started again (after a stop, a crash, a changed definition) may list other things.
    if (previous) for (const kind of ['tools', 'resources', 'prompts'] as const) this.onListChanged.fire({ id: entry.id, kind });
    return connection;
  }

  private epochOf(entry: ServerEntry): number {
    return this.epochs.get(entry) ?? 0;
  }

  /** Ends whatever the entry is doing: a start in progress, its connection. */
  private async stopEntry(entry: ServerEntry): Promise<void> {
    this.epochs.set(entry, this.epochOf(entry) + 1);
    await entry.connection?.stop();
  }

  private waitUntilSettled(connection: ServerConnection): Promise<ServerConnection> {
    return new Promise((resolve, reject) => {
      const remove = connection.onDidChange.add(() => {
        if (connection.state === 'running') {
          remove();
          resolve(connection);
        } else if (connection.state !== 'starting') {
          remove();
          reject(new CallError(connection.detail ?? `${connection.name} did not start`));
        }
      });
    });
  }

  async stop(id: string): Promise<void> {
    await this.stopEntry(this.require(id));
  }

  async restart(id: string): Promise<ServerConnection> {
    await this.stop(id);
    return this.start(id);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.servers.map((e) => this.stopEntry(e)));
  }

  /** Calls of ours in flight, to every server (the person's and the agents'). */
  get callsInFlight(): number {
    return this.servers.reduce((sum, e) => sum + (e.connection?.pending.calls ?? 0), 0);
  }

  /** Calls a tool, starting its server on first use. */
  async callTool(id: string, tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    const entry = this.require(id);
    const connection = entry.connection?.state === 'running' ? entry.connection : await this.start(id);
    return connection.callTool(tool, args, options);
  }

  /**
   * The server `id` (or name) as the gateway's port: the same object on every call while
   * the server stays configured; it starts the server on first use, as Run Tool does.
   */
  upstream(id: string): Upstream {
    const entry = this.require(id);
    let upstream = this.upstreams.get(entry.id);
    if (!upstream) {
      const id = entry.id;
      const current = (): ServerEntry => {
        const found = this.find(id);
        if (!found) throw new Error(`no server "${id}" is configured`);
        return found;
      };
      upstream = upstreamOver({
        id,
        name: entry.definition.name,
        origin: originOf(entry.definition.source),
        current: () => current().connection,
        start: () => this.start(id),
        onListChanged: (listener) =>
          this.onListChanged.add((change) => {
            if (change.id === id) listener(change.kind);
          }),
      });
      this.upstreams.set(entry.id, upstream);
    }
    return upstream;
  }

  rootsChanged(): void {
    for (const entry of this.entries.values()) entry.connection?.rootsChanged();
  }

  private require(id: string): ServerEntry {
    const entry = this.find(id);
    if (!entry) throw new CallError(`no server "${id}" is configured`);
    return entry;
  }

  /**
   * Substitutes variables (asking for inputs) and merges the env file under `env`. The
   * input values come back beside the definition: the connection hides them everywhere.
   */
  private async resolve(entry: ServerEntry): Promise<{ definition: ServerDefinition; secrets: readonly string[] }> {
    const { definition } = entry;
    const secrets: string[] = [];
    const config = await resolveVariables(definition.config, {
      workspaceFolder: definition.source.kind === 'workspace' ? definition.source.folder : this.deps.firstWorkspaceFolder(),
      portable: definition.source.format === 'portable',
      userHome: this.deps.userHome,
      env: this.deps.env,
      inputs: entry.inputs,
      resolveInput: async (input) => {
        const value = await this.deps.resolveInput(input);
        if (value !== undefined) secrets.push(value);
        return value;
      },
    });
    if (config.type !== 'stdio' || config.envFile === undefined) return { definition: { ...definition, config }, secrets };
    let text: string;
    try {
      text = await this.deps.readFile(config.envFile);
    } catch (error) {
      throw new VariableError(`cannot read envFile ${config.envFile}: ${errorMessage(error)}`);
    }
    const { envFile: _envFile, ...rest } = config;
    return { definition: { ...definition, config: { ...rest, env: { ...parseEnvFile(text), ...config.env } } }, secrets };
  }
}
