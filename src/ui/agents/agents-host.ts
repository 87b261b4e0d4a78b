/**
 * The room `src/ui/agents/`: ACP agents in VS Code: this file (the agents in the window),
 * `agent-definitions` (the configured agents, read and checked), `add-agent` (Add Agent…) with
 * `acp-registry` (the ACP Registry's agents, read as untrusted data), `acp-registry-source`
 * (where it comes from: fetched once a day, kept, or none), `acp-agent-catalog` (the built-in
 * list), `program-on-path` (what the machine lacks) and `command-line` (a command line, split
 * and shown), `session-panel` (one session's panel, on the page host ui/webview/ shares) with
 * `session-page` (its HTML, in the page every panel of ours serves),
 * `transcript` (what it shows), `page-batches` (what it posts, gathered per frame's time) and
 * `whole-replies` with `whole-reply-documents` (a reply's whole past its cap, in a file opened on
 * demand in an editor), `editor-files` (an agent's file reads and writes, through open
 * editors), and `shared-servers` (the person's MCP servers for each new session). The page
 * itself is `webview/session/`. Beside them, the agent hosts this window is a client of
 * (VS Code's own agents): `agent-hosts` (their connections and inboxes) with
 * `agent-host-definitions` (the setting, read and checked, and how a state reads),
 * `local-agent-host` (the local host desktop VS Code publishes), `connect-agent-host`
 * (Connect to an Agent Host…), `agent-host-commands` (its commands), and `ahp-loader` with
 * `ahp-bundle` (the agent host client, dist/ahp.js, loaded with the first host).
 *
 * ACP agents in the window: the configured agents (`elicitationHost.agents`), one running
 * process each once a session needs it, its sessions and their panels. A workspace's own agent
 * command starts only in a trusted workspace (as its servers do); an agent's questions and
 * permissions go through the same broker and prompts as every server's, with the agent's
 * configured name as who asks. New sessions start in the agent's mode that asks before it
 * acts, where it has one, unless the person chose otherwise. A session lives until Close Session
 * (or its panel closed with no turn running, see session-panel.ts): then the agent is told
 * (`session/close` where it has it) and everything of the session is let go of.
 */
import * as vscode from 'vscode';
import { AgentClient, describeExit } from '../../acp/agent-client';
import type { AgentSession } from '../../acp/agent-session';
import type { AgentHost } from '../../acp/ports';
import type { Broker } from '../../elicitation/broker';
import type { InputStore } from '../../elicitation/store';
import { Listeners } from '../../base/listeners';
import { showInfo, showWarning } from '../notify';
import { startInAskingMode } from '../settings';
import { isRecord } from '../../base/is-record';
import { agentsInSettingsText, type ConfiguredAgent, readAgents, SETTINGS_FILE_LIMIT, startMode } from './agent-definitions';
import { editorFiles } from './editor-files';
import { SessionPanel } from './session-panel';
import { errorMessage } from '../../base/error-message';
import { WHOLE_REPLY_SCHEME, WholeReplyDocuments } from './whole-reply-documents';
import { sweepWholeReplies } from './whole-replies';

export const AGENTS_SETTING = 'elicitationHost.agents';

export type AgentState = 'stopped' | 'starting' | 'running' | 'exited' | 'blocked';

export interface AgentEntry {
  readonly agent: ConfiguredAgent;
  readonly state: AgentState;
  /** Why it exited or could not start, as the person reads it. */
  readonly detail?: string;
  readonly sessions: readonly SessionPanel[];
}

interface Running {
  client?: AgentClient;
  starting?: Promise<AgentClient>;
  exited?: string;
  readonly sessions: SessionPanel[];
}

export interface AgentsHostDeps {
  readonly extensionUri: vscode.Uri;
  /** The extension's global storage: sessions write their whole replies under it. */
  readonly storageUri: vscode.Uri;
  readonly broker: Broker;
  readonly store: InputStore;
  readonly log: vscode.LogOutputChannel;
  readonly version: string;
  readonly settings: AgentHost['settings'];
  /** The person's MCP servers for each new session (shared-servers.ts). */
  readonly shareServers?: AgentHost['shareServers'];
}

export class AgentsHost implements vscode.Disposable {
  readonly onDidChange = new Listeners<void>();
  private configured: readonly ConfiguredAgent[] = [];
  private readonly running = new Map<string, Running>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly wholeDocuments = new WholeReplyDocuments();
  private readonly wholeReplies: string;

  constructor(private readonly deps: AgentsHostDeps) {
    this.wholeReplies = vscode.Uri.joinPath(deps.storageUri, 'whole-replies').fsPath;
    // What windows that crashed left behind (a live window's folder stays).
    sweepWholeReplies(this.wholeReplies);
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(WHOLE_REPLY_SCHEME, this.wholeDocuments));
    this.read();
    void this.readUntrusted();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(AGENTS_SETTING)) {
          this.read();
          this.onDidChange.fire();
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.untrustedValue = undefined;
        this.read();
        this.onDidChange.fire();
      }),
    );
    // Until trust, VS Code tells no change of a restricted setting: the files are watched instead.
    if (!vscode.workspace.isTrusted) {
      for (const uri of this.settingsFiles().map((f) => f.uri)) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop()!));
        const again = (): void => void this.readUntrusted();
        this.disposables.push(watcher, watcher.onDidChange(again), watcher.onDidCreate(again), watcher.onDidDelete(again));
      }
    }
  }

  /** The workspace's `elicitationHost.agents` as its settings files hold it, read as data while the workspace is untrusted. */
  private untrustedValue: unknown;

  private read(): void {
    const inspected = vscode.workspace.getConfiguration().inspect<unknown>(AGENTS_SETTING);
    // A folder's settings count as the workspace's: both are the repository's choice. Until
    // trust VS Code hides a restricted setting's workspace value: the files' own is shown, waiting.
    const workspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? (vscode.workspace.isTrusted ? undefined : this.untrustedValue);
    const { agents, problems } = readAgents(inspected?.globalValue, workspace);
    for (const problem of problems) this.deps.log.warn(problem);
    this.configured = agents;
  }

  /** The settings files of the workspace: its `.code-workspace` file's `settings`, then each folder's `.vscode/settings.json`. */
  private settingsFiles(): { readonly uri: vscode.Uri; readonly file: 'workspace' | 'folder' }[] {
    const workspaceFile = vscode.workspace.workspaceFile;
    return [
      ...(workspaceFile && workspaceFile.scheme !== 'untitled' ? [{ uri: workspaceFile, file: 'workspace' as const }] : []),
      ...(vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'), file: 'folder' as const })),
    ];
  }

  /** Reads the workspace's agents out of its settings files, as data, while it is untrusted (a later file's agent wins, as a folder's setting does). */
  private async readUntrusted(): Promise<void> {
    if (vscode.workspace.isTrusted) return;
    let merged: Record<string, unknown> | undefined;
    for (const { uri, file } of this.settingsFiles()) {
      let text: string;
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.size > SETTINGS_FILE_LIMIT) {
          this.deps.log.warn(`${uri.fsPath}: over ${SETTINGS_FILE_LIMIT.toLocaleString('en-US')} bytes, not read for its agents.`);
          continue;
        }
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue; // No such file: nothing defined there.
      }
      const value = agentsInSettingsText(text, file);
      if (isRecord(value)) merged = { ...merged, ...value };
      else if (value !== undefined) this.deps.log.warn(`${AGENTS_SETTING} in ${uri.fsPath} must be an object of agents by name.`);
    }
    if (vscode.workspace.isTrusted) return;
    this.untrustedValue = merged;
    this.read();
    this.onDidChange.fire();
  }

  get agents(): readonly AgentEntry[] {
    return this.configured.map((agent) => {
      const running = this.running.get(agent.definition.name);
      const blocked = agent.fromWorkspace && !vscode.workspace.isTrusted;
      const state: AgentState = running?.client ? 'running' : running?.starting ? 'starting' : running?.exited ? 'exited' : blocked ? 'blocked' : 'stopped';
      return {
        agent,
        state,
        ...(running?.exited && { detail: running.exited }),
        ...(blocked && { detail: "defined in this workspace's settings: it runs once you trust the workspace" }),
        sessions: running?.sessions ?? [],
      };
    });
  }

  find(name: string): ConfiguredAgent | undefined {
    return this.configured.find((a) => a.definition.name === name);
  }

  private host(): AgentHost {
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
      void client.exited.then((exit) => {
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
    const running = this.running.get(name)!;
    const panel = new SessionPanel(session, {
      extensionUri: this.deps.extensionUri,
      store: this.deps.store,
      log: this.deps.log,
      agentEnded: () => !this.running.get(name)?.client,
      wholeReplies: this.wholeReplies,
      wholeDocuments: this.wholeDocuments,
      closed: (closed) => this.sessionClosed(name, closed),
    });
    running.sessions.push(panel);
    panel.onDidChange.add(() => this.onDidChange.fire());
    this.onDidChange.fire();
    panel.reveal();
    return panel;
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
