/**
 * The room `src/ui/agent-hosts/`: the agent hosts this window is a client of (VS Code's own
 * agents, over AHP), beside the ACP agents of `src/ui/agents/` and sharing nothing with them:
 * this file (their connections and inboxes), `agent-host-definitions` (the setting, read and
 * checked, and how a state reads), `local-agent-host` (the local host desktop VS Code
 * publishes), `connect-agent-host` (Connect to an Agent Host…), `agent-host-commands` (its
 * commands), and `ahp-loader` with `ahp-bundle` (the agent host client, dist/ahp.js, loaded
 * with the first host).
 *
 * The agent hosts this window is a client of (VS Code's agent host, local or remote, or any
 * host speaking AHP): the hosts of the user setting `elicitationHost.agentHosts`, each with
 * its connection token from SecretStorage (never in settings, logs or History), one inbox
 * each (src/ahp/inbox.ts) putting the host's questions to the person through the window's
 * broker, as every other question. Hosts with a stored token connect when the window starts;
 * the Agents view shows each one's state (connected, or why not), its agents and its sessions
 * waiting for input. Connect, Disconnect, Reconnect and Forget are the person's.
 */
import * as vscode from 'vscode';
import type { Endpoint } from '../../ahp/endpoint';
import type { AgentHostInbox, InboxItem, InboxOptions } from '../../ahp/inbox';
import type { AhpLog } from '../../ahp/ports';
import type { AgentInfo } from '../../ahp/wire/root';
import type { Broker } from '../../elicitation/broker';
import { type InputStore, openRequests } from '../../elicitation/store';
import { Listeners } from '../../base/listeners';
import { AGENT_HOSTS_SETTING, describeFailure, failureOf, type HostDefinition, readAgentHosts, readStoredToken, sameAddress, sameEndpoint, settingEntry, storedToken, tokenKey } from './agent-host-definitions';
import { loadAhp } from './ahp-loader';
import { type LocalAgentHost, readLocalAgentHosts, userDataFromGlobalStorage } from './local-agent-host';

export type HostState = 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'disconnected' | 'no-token';

/** A session of a host with questions waiting for the person. */
export interface WaitingSession {
  readonly uri: string;
  readonly title?: string;
  /** Who asks, as every prompt says it ("Claude (my-laptop)"). */
  readonly agent: string;
  readonly items: readonly InboxItem[];
}

/** A host as the Agents view shows it. */
export interface HostView {
  readonly name: string;
  /** Where it listens, without the token. */
  readonly address: string;
  readonly local: boolean;
  readonly state: HostState;
  /** Why it is not connected, in a few words (the view's description). */
  readonly why?: string;
  /** The whole of it (the tooltip). */
  readonly detail?: string;
  readonly protocolVersion?: string;
  readonly agents: readonly AgentInfo[];
  readonly waiting: readonly WaitingSession[];
}

interface Connection {
  definition: HostDefinition;
  state: HostState;
  why?: string;
  detail?: string;
  inbox?: AgentHostInbox;
  /** The local host's address, once read from VS Code's entry. */
  address?: string;
  agents: readonly AgentInfo[];
  readonly waiting: Map<string, InboxItem>;
  /** Bumped by each connect and disconnect: a slower attempt's results are dropped. */
  generation: number;
  /** The last connection attempt, settled once connected or failed. */
  attempt?: Promise<void>;
}

export interface AgentHostsDeps {
  readonly context: vscode.ExtensionContext;
  readonly broker: Broker;
  readonly store: InputStore;
  readonly log: vscode.LogOutputChannel;
  readonly version: string;
  readonly applyDefaults: () => boolean;
  /** Brings an open request of the store to the person (the prompter's). */
  readonly openRequest: (requestId: string) => boolean;
  /** For `npm run bench`: the benchmark build's timings (each question's arrival). */
  readonly timings?: InboxOptions['timings'];
}

const LOCAL_ADDRESS = 'VS Code on this machine';

export class AgentHostConnections implements vscode.Disposable {
  readonly onDidChange = new Listeners<void>();
  private readonly connections = new Map<string, Connection>();
  private readonly log: AhpLog;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: AgentHostsDeps) {
    this.log = { info: (m) => deps.log.info(m), warn: (m) => deps.log.warn(m) };
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(AGENT_HOSTS_SETTING)) void this.sync();
      }),
    );
  }

  /** The configured hosts, read from the user settings only (the setting is application-scoped: a repository cannot point this window at a host). */
  private definitions(): HostDefinition[] {
    const { hosts, problems } = readAgentHosts(vscode.workspace.getConfiguration().inspect<unknown>(AGENT_HOSTS_SETTING)?.globalValue);
    for (const problem of problems) this.deps.log.warn(problem);
    return hosts;
  }

  get hosts(): readonly HostView[] {
    return [...this.connections.values()].map((c) => this.view(c));
  }

  find(name: string): HostView | undefined {
    const connection = this.connections.get(name);
    return connection && this.view(connection);
  }

  private view(c: Connection): HostView {
    const sessions = new Map<string, { uri: string; title?: string; agent: string; items: InboxItem[] }>();
    for (const item of c.waiting.values()) {
      const session = sessions.get(item.session) ?? { uri: item.session, ...(item.sessionTitle !== undefined && { title: item.sessionTitle }), agent: item.agent, items: [] };
      session.items.push(item);
      sessions.set(item.session, session);
    }
    return {
      name: c.definition.name,
      address: this.address(c),
      local: c.definition.kind === 'local',
      state: c.state,
      ...(c.why !== undefined && { why: c.why }),
      ...(c.detail !== undefined && { detail: c.detail }),
      ...(c.inbox && c.state !== 'failed' && c.state !== 'disconnected' && { protocolVersion: c.inbox.protocolVersion }),
      agents: c.agents,
      waiting: [...sessions.values()],
    };
  }

  private address(c: Connection): string {
    return c.definition.kind === 'url' ? c.definition.endpoint.display : (c.address ?? LOCAL_ADDRESS);
  }

  /** Connects every configured host that has a token (the local one reads its own): at the window's start. */
  async connectAll(): Promise<void> {
    await this.sync();
  }

  /** Follows the setting: new hosts connect, removed ones close, a changed address connects anew. */
  private async sync(): Promise<void> {
    const wanted = this.definitions();
    const names = new Set(wanted.map((d) => d.name));
    for (const [name, connection] of this.connections) {
      if (names.has(name)) continue;
      this.close(connection, 'disconnected');
      this.connections.delete(name);
    }
    const starting: Array<Promise<void> | undefined> = [];
    for (const definition of wanted) {
      const known = this.connections.get(definition.name);
      if (known && sameAddress(known.definition, definition)) continue;
      if (known) this.close(known, 'disconnected');
      const connection: Connection = { definition, state: 'connecting', agents: [], waiting: new Map(), generation: known ? known.generation + 1 : 0 };
      this.connections.set(definition.name, connection);
      this.connect(connection);
      starting.push(connection.attempt);
    }
    this.onDidChange.fire();
    await Promise.all(starting);
  }

  /**
   * Keeps a host (its token in SecretStorage, its name and address in the user settings) and
   * connects to it: resolves once connected or failed, with the host as the view shows it.
   */
  async add(definition: HostDefinition, token: string | undefined): Promise<HostView | undefined> {
    if (definition.kind === 'url') await this.deps.context.secrets.store(tokenKey(definition.endpoint), storedToken(token ?? ''));
    const kept = this.connections.get(definition.name);
    // The name given to another address: the token of the one it replaces goes with it.
    if (kept?.definition.kind === 'url' && !sameAddress(kept.definition, definition)) await this.deps.context.secrets.delete(tokenKey(kept.definition.endpoint));
    const config = vscode.workspace.getConfiguration();
    const current = { ...((config.inspect<Record<string, unknown>>(AGENT_HOSTS_SETTING)?.globalValue ?? {}) as Record<string, unknown>) };
    const entry = settingEntry(definition);
    if (JSON.stringify(current[definition.name]) !== JSON.stringify(entry)) {
      current[definition.name] = entry;
      await config.update(AGENT_HOSTS_SETTING, current, vscode.ConfigurationTarget.Global);
    }
    // Whether or not the settings' change event came first: the host is connecting after this.
    void this.sync();
    const connection = this.connections.get(definition.name);
    if (!connection) return undefined;
    // The same host given again (a new token, say): connected anew.
    if (connection === kept) this.connect(connection);
    await connection.attempt;
    return this.find(definition.name);
  }

  /** The name a host at this address already has, if any. */
  nameOf(endpoint: Endpoint): string | undefined {
    for (const c of this.connections.values()) if (c.definition.kind === 'url' && sameEndpoint(c.definition.endpoint, endpoint)) return c.definition.name;
    return undefined;
  }

  async reconnect(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (!connection) return;
    this.connect(connection);
    await connection.attempt;
  }

  /** Closes the connection for this window: its open questions close (withdrawn); the host stays configured. */
  disconnect(name: string): void {
    const connection = this.connections.get(name);
    if (connection) this.close(connection, 'disconnected');
  }

  /** Disconnects, removes the host from the user settings and its token from SecretStorage. */
  async forget(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (connection) {
      this.close(connection, 'disconnected');
      this.connections.delete(name);
      if (connection.definition.kind === 'url') await this.deps.context.secrets.delete(tokenKey(connection.definition.endpoint));
    }
    const config = vscode.workspace.getConfiguration();
    const current = { ...((config.inspect<Record<string, unknown>>(AGENT_HOSTS_SETTING)?.globalValue ?? {}) as Record<string, unknown>) };
    if (Object.prototype.hasOwnProperty.call(current, name)) {
      delete current[name];
      await config.update(AGENT_HOSTS_SETTING, Object.keys(current).length > 0 ? current : undefined, vscode.ConfigurationTarget.Global);
    }
    this.onDidChange.fire();
  }

  /** Brings a waiting session's first question to the person; false when none is open any more. */
  openWaiting(host: string, session: string): boolean {
    const item = [...(this.connections.get(host)?.waiting.values() ?? [])].find((i) => i.session === session);
    // The inbox hands the broker the item's own source object: that is how its request is found in the store.
    const request = item && openRequests(this.deps.store.state).find((r) => r.request.source === item.source);
    return request !== undefined && this.deps.openRequest(request.request.id);
  }

  /** The agent hosts desktop VS Code publishes on this machine, read from its userData (none when we cannot tell where that is). */
  async localHosts(): Promise<LocalAgentHost[]> {
    const storage = this.deps.context.globalStorageUri;
    const userData = storage.scheme === 'file' ? userDataFromGlobalStorage(storage.fsPath) : undefined;
    if (!userData) return [];
    const { hosts, problems } = await readLocalAgentHosts(userData, { ...(process.getuid && { uid: process.getuid() }) });
    for (const problem of problems) this.deps.log.warn(`local agent host entry left out: ${problem}`);
    return hosts;
  }

  private close(connection: Connection, state: HostState): void {
    connection.generation++;
    const inbox = connection.inbox;
    connection.inbox = undefined;
    connection.state = state;
    connection.why = state === 'disconnected' ? 'disconnected' : undefined;
    connection.detail = state === 'disconnected' ? 'Disconnected in this window: Reconnect to take its questions again.' : undefined;
    // Closing withdraws every open prompt (the inbox says so to each); the view forgets them now.
    inbox?.close();
    connection.waiting.clear();
    this.onDidChange.fire();
  }

  private async target(connection: Connection): Promise<{ readonly endpoint: Endpoint; readonly token: string } | { readonly why: string; readonly detail: string; readonly state: HostState }> {
    const { definition } = connection;
    if (definition.kind === 'local') {
      const [local] = await this.localHosts();
      if (!local) return { state: 'failed', why: 'VS Code publishes no agent host here', detail: 'Desktop VS Code (1.139 or later) publishes its agent host for local clients while it runs; none was found for this VS Code. Is its agent host running?' };
      connection.address = `${LOCAL_ADDRESS} (process ${local.pid})`;
      return { endpoint: local.endpoint, token: local.token };
    }
    const stored = await this.deps.context.secrets.get(tokenKey(definition.endpoint));
    const token = stored === undefined ? undefined : readStoredToken(stored);
    if (token === undefined) return { state: 'no-token', why: 'no token: use Connect to give it', detail: `No connection token is stored for ${definition.endpoint.display} in this VS Code: run "Connect to an Agent Host…" with its address and token.` };
    return { endpoint: definition.endpoint, token };
  }

  /** Closes what the host had, then connects anew (the attempt in `connection.attempt`). */
  private connect(connection: Connection): void {
    if (connection.inbox) this.close(connection, 'connecting');
    connection.attempt = this.attemptConnection(connection);
  }

  private async attemptConnection(connection: Connection): Promise<void> {
    const generation = ++connection.generation;
    const current = (): boolean => connection.generation === generation && this.connections.get(connection.definition.name) === connection;
    connection.state = 'connecting';
    connection.why = undefined;
    connection.detail = undefined;
    connection.waiting.clear();
    this.onDidChange.fire();
    const target = await this.target(connection);
    if (!current()) return;
    if ('why' in target) {
      Object.assign(connection, { state: target.state, why: target.why, detail: target.detail });
      this.onDidChange.fire();
      return;
    }
    const name = connection.definition.name;
    let inbox: AgentHostInbox;
    try {
      // The client (and the ws package) loads with the first host: a window without one never pays for it.
      inbox = await loadAhp().AgentHostInbox.open({
        endpoint: target.endpoint,
        ...(target.token !== '' && { token: target.token }),
        clientInfo: { name: 'elicitation-host', version: this.deps.version },
        log: this.log,
        broker: this.deps.broker,
        store: this.deps.store,
        hostName: name,
        applyDefaults: this.deps.applyDefaults,
        // Questions only: every streamed chunk is an action too.
        ...(this.deps.timings && { timings: (record) => void (/\/(inputRequested|toolCallReady)$/.test(record.type) && this.deps.timings?.(record)) }),
        events: {
          agents: (agents) => {
            if (!current()) return;
            connection.agents = agents;
            this.onDidChange.fire();
          },
          asked: (item) => {
            if (!current()) return;
            connection.waiting.set(item.key, item);
            this.onDidChange.fire();
          },
          answered: (item) => this.settled(connection, generation, item),
          withdrawn: (item) => this.settled(connection, generation, item),
          refused: (item, reason) => {
            if (item) this.settled(connection, generation, item);
            this.deps.log.warn(`agent host ${name}: a question could not be asked: ${reason}`);
          },
          status: (status, error) => {
            if (!current()) return;
            if (status === 'closed') {
              connection.inbox = undefined;
              this.failed(connection, error ?? { kind: 'closed', message: `the connection to the agent host at ${this.address(connection)} closed` });
              return;
            }
            connection.state = status;
            connection.why = status === 'reconnecting' ? 'reconnecting…' : undefined;
            connection.detail = status === 'reconnecting' && error ? `Reconnecting: ${error.message}` : undefined;
            this.onDidChange.fire();
          },
        },
      });
    } catch (error) {
      if (!current()) return;
      this.failed(connection, error);
      return;
    }
    if (!current()) {
      inbox.close();
      return;
    }
    connection.inbox = inbox;
    connection.agents = inbox.agentList;
    connection.state = 'connected';
    this.deps.log.info(`agent host ${name} (${this.address(connection)}): connected, AHP ${inbox.protocolVersion}`);
    this.onDidChange.fire();
  }

  private settled(connection: Connection, generation: number, item: InboxItem): void {
    if (connection.generation !== generation || !connection.waiting.delete(item.key)) return;
    this.onDidChange.fire();
  }

  private failed(connection: Connection, error: unknown): void {
    const failure = failureOf(error);
    connection.state = 'failed';
    connection.why = describeFailure(failure, this.address(connection));
    connection.detail = failure.message;
    connection.waiting.clear();
    this.deps.log.warn(`agent host ${connection.definition.name}: ${failure.message}`);
    this.onDidChange.fire();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const connection of this.connections.values()) {
      connection.generation++;
      connection.inbox?.close();
    }
    this.connections.clear();
  }
}
