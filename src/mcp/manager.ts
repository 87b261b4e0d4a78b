/**
 * All configured servers: definitions from every `mcp.json` and the user setting, one
 * connection each, their lifecycle (start on first use or at activation, stop, restart,
 * restart on a changed definition, stop on removal) and workspace trust. No `vscode`
 * here: the UI layer feeds it file texts and settings, and renders what it reports.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ConfigProblem, ConfigSource, InputDefinition, ParsedConfig, ServerDefinition } from './config';
import { type CallOptions, CallError, type ConnectionDeps, ServerConnection, type ServerLog } from './connection';
import { Listeners } from './listeners';
import { mayStart } from './trust';
import { parseEnvFile, resolveVariables, type VariableContext, VariableError } from './variables';

export interface ManagerDeps extends Omit<ConnectionDeps, 'log'> {
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
  readonly definition: ServerDefinition;
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
  return source.kind === 'user' ? 'user' : source.file;
}

export function serverId(definition: ServerDefinition): string {
  return `${sourceKey(definition.source)}#${definition.name}`;
}

export class ServerManager {
  readonly onDidChange = new Listeners<void>();
  private readonly entries = new Map<string, ServerEntry>();
  private readonly problemsBySource = new Map<string, { source: ConfigSource; problems: readonly ConfigProblem[] }>();

  constructor(private readonly deps: ManagerDeps) {}

  get servers(): readonly ServerEntry[] {
    return [...this.entries.values()];
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
   * A changed definition restarts its running server; a removed one stops.
   */
  async update(loaded: readonly LoadedSource[]): Promise<void> {
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
      if (entry.connection) work.push(entry.connection.stop());
    }
    for (const [id, { definition, inputs }] of incoming) {
      const existing = this.entries.get(id);
      if (existing && JSON.stringify(existing.definition) === JSON.stringify(definition) && JSON.stringify(existing.inputs) === JSON.stringify(inputs)) {
        continue;
      }
      const wasRunning = existing?.connection?.state === 'running' || existing?.connection?.state === 'starting';
      if (existing?.connection) await existing.connection.stop();
      const entry: ServerEntry = { id, definition, inputs, connection: undefined, blocked: undefined, failure: undefined };
      this.entries.set(id, entry);
      this.refreshTrust(entry);
      if ((wasRunning || this.deps.autoStart(definition.name)) && !entry.blocked) {
        work.push(this.start(id).catch(() => undefined));
      }
    }
    this.onDidChange.fire();
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
    if (entry.connection && (entry.connection.state === 'running' || entry.connection.state === 'starting')) {
      return entry.connection.state === 'running' ? entry.connection : this.waitUntilSettled(entry.connection);
    }
    entry.failure = undefined;
    let resolved: ServerDefinition;
    try {
      resolved = await this.resolve(entry);
    } catch (error) {
      entry.failure = error instanceof Error ? error.message : String(error);
      this.deps.logFor(entry.definition.name).error(entry.failure);
      this.onDidChange.fire();
      throw new CallError(entry.failure);
    }
    const connection = new ServerConnection(resolved, { ...this.deps, log: this.deps.logFor(entry.definition.name) });
    entry.connection = connection;
    connection.onDidChange.add(() => this.onDidChange.fire());
    await connection.start();
    return connection;
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
    await this.require(id).connection?.stop();
  }

  async restart(id: string): Promise<ServerConnection> {
    await this.stop(id);
    return this.start(id);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.servers.map((e) => e.connection?.stop()));
  }

  /** Calls a tool, starting its server on first use. */
  async callTool(id: string, tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult> {
    const entry = this.require(id);
    const connection = entry.connection?.state === 'running' ? entry.connection : await this.start(id);
    return connection.callTool(tool, args, options);
  }

  rootsChanged(): void {
    for (const entry of this.entries.values()) entry.connection?.rootsChanged();
  }

  private require(id: string): ServerEntry {
    const entry = this.find(id);
    if (!entry) throw new CallError(`no server "${id}" is configured`);
    return entry;
  }

  /** Substitutes variables (asking for inputs) and merges the env file under `env`. */
  private async resolve(entry: ServerEntry): Promise<ServerDefinition> {
    const { definition } = entry;
    const config = await resolveVariables(definition.config, {
      workspaceFolder: definition.source.kind === 'workspace' ? definition.source.folder : this.deps.firstWorkspaceFolder(),
      userHome: this.deps.userHome,
      env: this.deps.env,
      inputs: entry.inputs,
      resolveInput: this.deps.resolveInput,
    });
    if (config.type !== 'stdio' || config.envFile === undefined) return { ...definition, config };
    let text: string;
    try {
      text = await this.deps.readFile(config.envFile);
    } catch (error) {
      throw new VariableError(`cannot read envFile ${config.envFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const { envFile: _envFile, ...rest } = config;
    return { ...definition, config: { ...rest, env: { ...parseEnvFile(text), ...config.env } } };
  }
}
