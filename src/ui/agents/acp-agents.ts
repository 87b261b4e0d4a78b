/**
 * The room `src/ui/agents/`: ACP agents in VS Code: this file (the agents in the window),
 * `agent-definitions` (the configured agents, read and checked) with `configured-agents` (read
 * from the settings, and from the files as data until trust), `add-agent` (Add Agent…) with
 * `add-agent-text` (what its confirmation says),
 * `acp-registry` (the ACP Registry's agents, read as untrusted data), `acp-registry-source`
 * (where it comes from: fetched once a day, kept, or none), `acp-agent-catalog` (the built-in
 * list), `program-on-path` (what the machine lacks) and `command-line` (a command line, split
 * and shown), `session-panel` (one session's panel, on the page host ui/webview/ shares) with
 * `session-page` (its HTML, in the page every panel of ours serves),
 * `transcript` (what it shows), `page-batches` (what it posts, gathered per frame's time),
 * `whole-replies` with `whole-reply-documents` (a reply's whole past its cap, in a file opened on
 * demand in an editor), `session-keeper` (what is kept of sessions beyond their panels) with
 * `session-memory` (the sessions a reload lists again), `past-session-pick` (Open Past Agent
 * Session…), `editor-files` (an agent's file reads and writes, through open editors), and
 * `shared-servers` (the person's MCP servers for each session). The page itself is
 * `webview/session/`. The agent hosts this window is a client of (VS Code's own agents, AHP)
 * are a room of their own below this one, `src/ui/agent-hosts/`, which neither imports.
 *
 * ACP agents in the window: the configured agents (`elicitationHost.agents`), one running
 * process each once a session needs it, its sessions and their panels. A workspace's own agent
 * command starts only in a trusted workspace (as its servers do); an agent's questions and
 * permissions go through the same broker and prompts as every server's, with the agent's
 * configured name as who asks. New sessions start in the agent's mode that asks before it
 * acts, where it has one, unless the person chose otherwise; so do reopened ones. A session
 * lives until Close Session (or its panel closed with no turn running, see session-panel.ts):
 * then the agent is told (`session/close` where it has it) and everything of the session is
 * let go of.
 *
 * Past sessions, where an agent declares them: its `session/list` for the folder, and the
 * sessions open here before a reload (remembered in the workspace's storage), each reopened
 * into a panel by `session/load` (the conversation replayed) or `session/resume`.
 */
import * as vscode from 'vscode';
import { AgentClient, describeExit } from '../../acp/agent-client';
import type { AgentSession } from '../../acp/agent-session';
import { canReopen, type PastSession, type SessionSupport } from '../../acp/past-sessions';
import type { AgentClientPorts } from '../../acp/ports';
import type { Broker } from '../../elicitation/broker';
import type { InputStore } from '../../elicitation/store';
import { Listeners } from '../../base/listeners';
import { showInfo, showWarning } from '../notify';
import { startInAskingMode } from '../settings';
import { type ConfiguredAgent, startMode } from './agent-definitions';
import { AGENTS_SETTING, ConfiguredAgents } from './configured-agents';
import { editorFiles } from './editor-files';
import { SessionKeeper } from './session-keeper';
import type { MementoLike, RememberedSession } from './session-memory';
import { SessionPanel } from './session-panel';
import { errorMessage } from '../../base/error-message';
import { WHOLE_REPLY_SCHEME, WholeReplyDocuments } from './whole-reply-documents';
import { sweepWholeReplies } from './whole-replies';

export { AGENTS_SETTING };

export type AgentState = 'stopped' | 'starting' | 'running' | 'exited' | 'blocked';

export interface AgentEntry {
  readonly agent: ConfiguredAgent;
  readonly state: AgentState;
  /** Why it exited or could not start, as the person reads it. */
  readonly detail?: string;
  readonly sessions: readonly SessionPanel[];
  /** What the agent declares it can do with past sessions, once known (it ran, now or before). */
  readonly support?: SessionSupport;
  /** Sessions open here before (a reload, a stopped agent), not open now: reopened on a click. */
  readonly remembered: readonly RememberedSession[];
  /** Those of them closed in this window (Close Session, or their panel closed). */
  readonly closed: ReadonlySet<string>;
}

interface Running {
  client?: AgentClient;
  starting?: Promise<AgentClient>;
  exited?: string;
  readonly sessions: SessionPanel[];
}

export interface AcpAgentsDeps {
  readonly extensionUri: vscode.Uri;
  /** The extension's global storage: sessions write their whole replies under it. */
  readonly storageUri: vscode.Uri;
  readonly broker: Broker;
  readonly store: InputStore;
  readonly log: vscode.LogOutputChannel;
  readonly version: string;
  readonly settings: AgentClientPorts['settings'];
  /** The workspace's storage: the sessions a reload lists again. */
  readonly memory: MementoLike;
  /** The person's MCP servers for each new session (shared-servers.ts). */
  readonly shareServers?: AgentClientPorts['shareServers'];
}

export class AcpAgents implements vscode.Disposable {
  readonly onDidChange = new Listeners<void>();
  private readonly configured: ConfiguredAgents;
  private readonly running = new Map<string, Running>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly wholeDocuments = new WholeReplyDocuments();
  /** By agent, the sessions closed in this window and not opened again. */
  private readonly closedHere = new Map<string, Set<string>>();
  private readonly wholeReplies: string;
  /** The sessions open before a reload, what each agent declares of past sessions, their lists. */
  private readonly kept: SessionKeeper;

  constructor(private readonly deps: AcpAgentsDeps) {
    this.wholeReplies = vscode.Uri.joinPath(deps.storageUri, 'whole-replies').fsPath;
    // What windows that crashed left behind (a live window's folder stays).
    sweepWholeReplies(this.wholeReplies);
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(WHOLE_REPLY_SCHEME, this.wholeDocuments));
    this.kept = new SessionKeeper(deps.memory);
    this.configured = new ConfiguredAgents(deps.log);
    this.disposables.push(this.configured);
    this.configured.onDidChange.add(() => this.onDidChange.fire());
  }

  get agents(): readonly AgentEntry[] {
    return this.configured.agents.map((agent) => {
      const running = this.running.get(agent.definition.name);
      const blocked = agent.fromWorkspace && !vscode.workspace.isTrusted;
      const state: AgentState = running?.client ? 'running' : running?.starting ? 'starting' : running?.exited ? 'exited' : blocked ? 'blocked' : 'stopped';
      const name = agent.definition.name;
      const support = this.kept.support(agent, running?.client);
      const open = new Set((running?.sessions ?? []).map((p) => p.session.id));
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      return {
        agent,
        state,
        ...(running?.exited && { detail: running.exited }),
        ...(blocked && { detail: "defined in this workspace's settings: it runs once you trust the workspace" }),
        sessions: running?.sessions ?? [],
        ...(support && { support }),
        remembered: this.kept.rememberedOf(name, folder, open),
        closed: this.closedHere.get(name) ?? new Set(),
      };
    });
  }

  find(name: string): ConfiguredAgent | undefined {
    return this.configured.agents.find((a) => a.definition.name === name);
  }

  private host(): AgentClientPorts {
    const log = this.deps.log;
    return {
      broker: this.deps.broker,
      files: editorFiles,
      isTrusted: () => vscode.workspace.isTrusted,
      log: {
        info: (m) => log.info(m),
        warn: (m) => log.warn(m),
        error: (m) => log.error(m),
        stderr: (line) => log.debug(line),
      },
      settings: this.deps.settings,
      clientInfo: { name: 'elicitation-host', version: this.deps.version },
      ...(this.deps.shareServers && { shareServers: this.deps.shareServers }),
    };
  }

  /** The agent's client, started if needed (a workspace's agent only once trusted). */
  private async client(agent: ConfiguredAgent): Promise<AgentClient> {
    const name = agent.definition.name;
    if (agent.fromWorkspace && !vscode.workspace.isTrusted) {
      const manage = 'Manage Workspace Trust';
      void showWarning(`The agent "${name}" is defined in this workspace's settings, so it runs a program the repository chose. It starts once you trust the workspace.`, manage).then((choice) => {
        if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
      });
      throw new Error(`${name} does not start in an untrusted workspace`);
    }
    let running = this.running.get(name);
    if (running?.client) return running.client;
    if (running?.starting) return running.starting;
    running = { sessions: running?.sessions ?? [] };
    this.running.set(name, running);
    const entry = running;
    const starting = AgentClient.start(
      { ...agent.definition, ...(vscode.workspace.workspaceFolders?.[0] && { cwd: vscode.workspace.workspaceFolders[0].uri.fsPath }) },
      this.host(),
    );
    entry.starting = starting;
    entry.exited = undefined;
    this.onDidChange.fire();
    try {
      const client = await starting;
      entry.client = client;
      this.kept.started(agent, client);
      void client.exited.then((exit) => {
        this.kept.changed(name);
        if (entry.client !== client) return;
        entry.client = undefined;
        entry.exited = describeExit(exit);
        for (const panel of entry.sessions) panel.agentEnded(`${name} ended: ${entry.exited}`);
        this.onDidChange.fire();
      });
      return client;
    } catch (error) {
      entry.exited = errorMessage(error);
      throw error;
    } finally {
      entry.starting = undefined;
      this.onDidChange.fire();
    }
  }

  /**
   * A new session with `name` in the first workspace folder (the person's home without one):
   * the agent's own pre-session form first, where it sends one; then the starting mode.
   */
  async newSession(name: string): Promise<SessionPanel> {
    const agent = this.find(name);
    if (!agent) throw new Error(`No agent "${name}" is configured (${AGENTS_SETTING}).`);
    const client = await this.client(agent);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!folder) throw new Error('Open a folder first: an agent works in a folder, and reads and writes only inside it.');
    const ended = new AbortController();
    void client.exited.then(() => ended.abort(new Error(`${name} ended`)));
    const config = await client.askSessionConfig(ended.signal);
    const session = await client.newSession({ cwd: folder, ...(config && { config }) });
    await this.applyStartMode(agent, session);
    const panel = this.addPanel(name, client, session);
    panel.reveal();
    return panel;
  }

  /** A panel for a session of a running agent, listed under it and remembered across a reload where the agent can reopen it. */
  private addPanel(name: string, client: AgentClient, session: AgentSession, reopening?: string): SessionPanel {
    const running = this.running.get(name)!;
    this.closedHere.get(name)?.delete(session.id);
    // Its own session's end, not the agent's state: a session of a process that ended stays ended when the agent starts again.
    const panel = new SessionPanel(
      session,
      {
        extensionUri: this.deps.extensionUri,
        store: this.deps.store,
        log: this.deps.log,
        agentEnded: () => session.endSignal.aborted,
        wholeReplies: this.wholeReplies,
        wholeDocuments: this.wholeDocuments,
        closed: (closed) => this.sessionClosed(name, closed),
      },
      reopening,
    );
    running.sessions.push(panel);
    panel.onDidChange.add(() => this.onDidChange.fire());
    const reopenable = canReopen(client.sessionSupport);
    session.events.add((event) => {
      // A turn that ends or a new title changes the agent's list and what a reload shows.
      if (event.type !== 'turn-end' && event.type !== 'title') return;
      this.kept.changed(name);
      if (reopenable) void this.remember();
    });
    this.kept.changed(name);
    if (reopenable) void this.remember();
    this.onDidChange.fire();
    return panel;
  }

  /** Keeps the sessions open now, beside those remembered and not reopened, for the next window. */
  private async remember(): Promise<void> {
    await this.kept.keep(
      [...this.running].map(([agent, running]) => {
        const configured = this.find(agent);
        return {
          agent,
          support: configured && this.kept.support(configured, running.client),
          sessions: running.sessions.map((p) => ({ sessionId: p.session.id, cwd: p.session.cwd, title: p.session.label, ...(p.lastActivity !== undefined && { lastActivity: p.lastActivity }) })),
        };
      }),
    );
  }

  /**
   * The agent's past sessions in the folder (`session/list`), newest first, without those open
   * here. Only for a running agent that declares a list; kept until a turn ends or sessions change.
   */
  async pastSessions(name: string): Promise<PastSession[]> {
    const running = this.running.get(name);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!running?.client || !folder) return [];
    return this.kept.list(name, running.client, folder, new Set(running.sessions.map((p) => p.session.id)));
  }

  /** Starts the agent (if needed) and says what it declares of past sessions. */
  async startForPastSessions(name: string): Promise<SessionSupport> {
    const agent = this.find(name);
    if (!agent) throw new Error(`No agent "${name}" is configured (${AGENTS_SETTING}).`);
    return (await this.client(agent)).sessionSupport;
  }

  /**
   * A past session in a panel again (session-keeper.ts says how): the agent started if needed,
   * the session loaded or resumed in this folder, then its asking mode as a new one's.
   */
  async reopen(name: string, sessionId: string, title?: string): Promise<SessionPanel> {
    const agent = this.find(name);
    if (!agent) throw new Error(`No agent "${name}" is configured (${AGENTS_SETTING}).`);
    const client = await this.client(agent);
    const shown = this.running.get(name)!.sessions.find((p) => p.session.id === sessionId);
    return this.kept.reopen(
      { agent: name, client, sessionId, ...(title !== undefined && { title }), cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, ...(shown && { shown }) },
      {
        addPanel: (session, note) => this.addPanel(name, client, session, note),
        dropPanel: (panel) => this.dropPanel(name, panel),
        startMode: (session) => this.applyStartMode(agent, session),
        forgotten: () => this.onDidChange.fire(),
      },
    );
  }

  private dropPanel(name: string, panel: SessionPanel): void {
    const running = this.running.get(name);
    const at = running?.sessions.indexOf(panel) ?? -1;
    if (at >= 0) running!.sessions.splice(at, 1);
    panel.dispose();
    this.onDidChange.fire();
  }

  private async applyStartMode(agent: ConfiguredAgent, session: AgentSession): Promise<void> {
    const modes = session.modes;
    if (!modes) return;
    const askFirst = startInAskingMode();
    const target = startMode(agent.mode, askFirst, modes.available, modes.current.id);
    if (target === undefined) return;
    try {
      await session.setMode(target);
    } catch (error) {
      void showInfo(`${agent.definition.name}: could not start in mode "${target}": ${errorMessage(error)}`);
    }
  }

  /** Shows a session's panel again. */
  openSession(name: string, sessionId: string): void {
    this.running.get(name)?.sessions.find((p) => p.session.id === sessionId)?.reveal();
  }

  /**
   * A session of the agent's in the first workspace folder, with no panel: who asks for it
   * draws it (the session bench's baseline, a plain page). Closed with `client.closeSession`.
   */
  async sessionWithoutPanel(name: string): Promise<{ readonly session: AgentSession; readonly client: AgentClient }> {
    const agent = this.find(name);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!agent || !folder) throw new Error(`No agent "${name}", or no folder open`);
    const client = await this.client(agent);
    return { session: await client.newSession({ cwd: folder }), client };
  }

  /** Close Session (the Agents view's): the panel closes, the session ends. */
  closeSession(name: string, sessionId: string): void {
    this.running.get(name)?.sessions.find((p) => p.session.id === sessionId)?.close();
  }

  /** A session ended in its panel: out of the list, and the agent told (it frees what it holds for it too). */
  private sessionClosed(name: string, panel: SessionPanel): void {
    const running = this.running.get(name);
    const at = running?.sessions.indexOf(panel) ?? -1;
    if (running && at >= 0) running.sessions.splice(at, 1);
    this.closedHere.set(name, (this.closedHere.get(name) ?? new Set()).add(panel.session.id));
    // No longer open: a reload does not list it again (the agent's own list may).
    this.kept.changed(name);
    void this.remember();
    this.onDidChange.fire();
    const client = running?.client;
    if (client) void client.closeSession(panel.session.id).catch((error: unknown) => this.deps.log.warn(`${name} could not close session ${panel.session.id}: ${errorMessage(error)}`));
  }

  /** Stops the agent's process; its sessions take no more prompts. */
  async stop(name: string): Promise<void> {
    const running = this.running.get(name);
    const client = running?.client;
    if (!running || !client) return;
    running.client = undefined;
    running.exited = 'stopped';
    await client.close();
    for (const panel of running.sessions) panel.agentEnded(`${name} was stopped.`);
    this.onDidChange.fire();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const running of this.running.values()) {
      for (const panel of running.sessions) panel.dispose();
      void running.client?.close();
    }
    this.running.clear();
  }
}
