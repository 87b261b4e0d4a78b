/**
 * The room `src/ui/views/`: the Agent Inputs container's views, which show every other room's
 * state: this file (Servers), `server-commands` (its per-server commands), `gateway-addresses`
 * (where agents reach each server through the gateway), `task-items` and
 * `task-text` (the running MCP tasks under their server, with Cancel), `pending`
 * (Pending Inputs and the status bar), `pending-badge` (their count on the activity bar) and
 * `attention` (when that count stands out), `agents-view` (Agents: the ACP agents and their
 * sessions) with `agent-host-items` (the agent hosts' rows) and `history-view` (History); they refresh a moment after the prompt
 * (`src/ui/after-prompts.ts`).
 *
 * The Servers tree: each configured server with its state (and whether the person muted
 * its questions), its running tasks and its tools under it, and the configuration files
 * that have problems.
 * Server text goes into labels and plain-text tooltips only, never Markdown, without
 * invisible characters.
 */
import * as vscode from 'vscode';
import type { ServerConnection } from '../../mcp/connection/connection';
import type { ToolInfo } from '../../mcp/tool-info';
import { scopeOf } from '../../mcp/config/config';
import type { ServerEntry, ServerManager } from '../../mcp/servers/manager';
import { ServeChoices } from '../gateway/serve-choices';
import type { MutedServers } from '../prompts/mutes';
import type { LiveTasks } from '../servers/live-tasks';
import { oneLine, plain } from '../text';
import { TaskClock, taskItem, type TaskNode, tasksItem, type TasksNode } from './task-items';
import { type GatewayAddress, gatewayAddresses, shortScope } from './gateway-addresses';

export type ServersNode =
  | { readonly kind: 'server'; readonly entry: ServerEntry }
  | TasksNode
  | TaskNode
  | { readonly kind: 'tool'; readonly entry: ServerEntry; readonly tool: ToolInfo }
  | { readonly kind: 'problems'; readonly file: string; readonly count: number; readonly first: { line: number; column: number; message: string } };

export function stateOf(entry: ServerEntry): 'blocked' | 'signin' | 'stopped' | 'starting' | 'running' | 'error' {
  if (entry.blocked) return 'blocked';
  // It answered 401: nothing happens until the person signs in.
  if (entry.connection?.signIn?.required && entry.connection.state === 'error') return 'signin';
  if (entry.failure && (!entry.connection || entry.connection.state === 'stopped')) return 'error';
  return entry.connection?.state ?? 'stopped';
}

const STATE_ICONS: Record<ReturnType<typeof stateOf>, vscode.ThemeIcon> = {
  blocked: new vscode.ThemeIcon('workspace-untrusted', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  signin: new vscode.ThemeIcon('account', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  stopped: new vscode.ThemeIcon('circle-outline'),
  starting: new vscode.ThemeIcon('loading~spin'),
  running: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
};

export class ServersTreeProvider implements vscode.TreeDataProvider<ServersNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ServersNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: Array<() => void>;
  /** One Tasks node per connection, so its rows can be redrawn alone (the tree knows nodes by identity). */
  private readonly taskGroups = new WeakMap<ServerConnection, TasksNode>();
  private appearances = 0;
  /** Each server's gateway address, as of the list's last drawing. */
  private addresses = new Map<string, GatewayAddress>();

  constructor(
    private readonly manager: ServerManager,
    private readonly mutes: MutedServers,
    private readonly agentChoices: ServeChoices,
    tasks: LiveTasks,
  ) {
    const refresh = (): void => this.changed.fire(undefined);
    const choices = agentChoices.onDidChange(refresh);
    const clock = new TaskClock(tasks, refresh, () => this.tickTasks());
    this.unsubscribe = [manager.onDidChange.add(refresh), mutes.onDidChange(refresh), () => choices.dispose(), () => clock.dispose()];
  }

  /** Redraws each Tasks group and its rows (the elapsed times), nothing else. */
  private tickTasks(): void {
    for (const entry of this.manager.servers) {
      const group = entry.connection && this.taskGroups.get(entry.connection);
      if (group && group.connection.tasks.size > 0) this.changed.fire(group);
    }
  }

  /** The connection's Tasks group while it has tasks; undefined (and forgotten, to appear anew) when it has none. */
  private tasksNode(entry: ServerEntry, connection: ServerConnection): TasksNode | undefined {
    if (connection.tasks.size === 0) {
      this.taskGroups.delete(connection);
      return undefined;
    }
    let group = this.taskGroups.get(connection);
    if (!group || group.entry !== entry) {
      group = { kind: 'tasks', entry, connection, appearance: `${Date.now().toString(36)}-${++this.appearances}` };
      this.taskGroups.set(connection, group);
    }
    return group;
  }

  getChildren(node?: ServersNode): ServersNode[] {
    if (!node) {
      this.addresses = gatewayAddresses(this.manager.servers);
      const problems: ServersNode[] = [...this.manager.problems.entries()]
        .filter(([, p]) => p.problems.length > 0)
        .map(([file, p]) => ({ kind: 'problems', file: p.source.file === undefined ? 'settings: elicitationHost.servers' : file, count: p.problems.length, first: p.problems[0] }));
      return [...this.manager.servers.map((entry): ServersNode => ({ kind: 'server', entry })), ...problems];
    }
    if (node.kind === 'server' && node.entry.connection?.state === 'running') {
      const { connection } = node.entry;
      const tools = connection.tools.map((tool): ServersNode => ({ kind: 'tool', entry: node.entry, tool }));
      const group = this.tasksNode(node.entry, connection);
      return group ? [group, ...tools] : tools;
    }
    if (node.kind === 'tasks') return node.connection.tasks.list().map((task): ServersNode => ({ kind: 'task', entry: node.entry, task }));
    return [];
  }

  getTreeItem(node: ServersNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server':
        return this.serverItem(node.entry);
      case 'tasks':
        return tasksItem(node);
      case 'task':
        return taskItem(node, Date.now());
      case 'tool': {
        const { tool } = node;
        const item = new vscode.TreeItem(oneLine(tool.title ?? tool.name, 120));
        item.id = `${node.entry.id}/${tool.name}`;
        item.description = oneLine([tool.title && tool.title !== tool.name ? tool.name : undefined, tool.destructive ? 'destructive' : undefined].filter(Boolean).join(' · '), 200);
        item.tooltip = plain(`${tool.name}${tool.destructive ? ' (destructive)' : tool.readOnly ? ' (read-only)' : ''}\n\n${tool.description ?? ''}`.trim());
        item.iconPath = new vscode.ThemeIcon(tool.destructive ? 'warning' : 'tools', tool.destructive ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined);
        item.contextValue = 'tool';
        return item;
      }
      case 'problems': {
        const item = new vscode.TreeItem(`${node.file.split(/[\\/]/).slice(-2).join('/')}: ${node.count} problem${node.count === 1 ? '' : 's'}`);
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.tooltip = plain(`${node.file}\nline ${node.first.line + 1}, column ${node.first.column + 1}: ${node.first.message}`);
        item.description = oneLine(node.first.message, 200);
        if (!node.file.startsWith('settings:')) {
          item.command = {
            command: 'vscode.open',
            title: 'Open',
            arguments: [vscode.Uri.file(node.file), { selection: new vscode.Range(node.first.line, node.first.column, node.first.line, node.first.column) }],
          };
        }
        return item;
      }
    }
  }

  private serverItem(entry: ServerEntry): vscode.TreeItem {
    const state = stateOf(entry);
    const connection = entry.connection;
    const muted = this.mutes.has(entry.definition.name);
    const item = new vscode.TreeItem(oneLine(entry.definition.name, 120), state === 'running' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    // A new id once running: the tree would otherwise keep the collapsed state it had while starting.
    item.id = `${entry.id}#${state === 'running' ? 'running' : 'idle'}`;
    item.iconPath = STATE_ICONS[state];
    const served = this.agentChoices.served(entry.definition);
    const remote = entry.definition.config.type !== 'stdio';
    // "server.<state>.agent-on|off", ".remote" for a server that may sign in, and ".muted" while muted (the menus match on each part).
    item.contextValue = `server.${state}.agent-${served ? 'on' : 'off'}${remote ? '.remote' : ''}${muted ? '.muted' : ''}`;
    const where = [scopeOf(entry.definition.source), ...(entry.definition.alsoIn ?? [])].join(', also in ');
    const detail = entry.blocked ?? (state === 'error' ? (connection?.detail ?? entry.failure) : undefined);
    const described =
      state === 'signin'
        ? 'sign in required'
        : state === 'running' && connection
        ? `${connection.tools.length} tool${connection.tools.length === 1 ? '' : 's'} · ${connection.protocolVersion} · ${connection.transportKind}`
        : detail
          ? `${state}: ${oneLine(detail, 120)}`
          : state;
    // Two different servers of one name (in two files) are told apart by their file.
    const namesake = this.manager.servers.some((other) => other !== entry && other.definition.name === entry.definition.name);
    const address = this.addresses.get(entry.id);
    item.description = [namesake ? shortScope(entry.definition.source) : undefined, address?.moved, muted ? 'muted' : undefined, served ? "VS Code's agent" : undefined, described].filter(Boolean).join(' · ');
    const lines = [
      `${entry.definition.name} (${entry.definition.config.type}) from ${where}`,
      state === 'signin' ? 'State: sign in required. The server answers 401 until you sign in (Sign In); nothing opens a browser until you do.' : `State: ${state}`,
      ...(address ? [address.line] : []),
      ...(muted ? ['Questions: muted for this session, declined without asking (Unmute Questions to be asked again)'] : []),
      served
        ? ServeChoices.vsCodeAlsoRuns(entry.definition)
          ? "VS Code's agent: served by Elicitation Host, so its questions are asked here. VS Code also runs this server from mcp.json: disable it there (MCP: List Servers) so its tools appear once."
          : "VS Code's agent: served by Elicitation Host, so its questions are asked here."
        : ServeChoices.vsCodeAlsoRuns(entry.definition)
          ? "VS Code's agent: VS Code runs this server itself from mcp.json (Serve to VS Code's Agent moves it here)."
          : "VS Code's agent: not served (Serve to VS Code's Agent).",
      ...(detail ? [detail] : []),
      ...(connection?.crash?.stderrTail.length ? ['', 'Last output:', ...connection.crash.stderrTail.slice(-8)] : []),
      ...(connection?.serverInfo ? [`Server: ${connection.serverInfo.name} ${connection.serverInfo.version}`] : []),
      ...(connection?.protocolVersion ? [`Protocol: MCP ${connection.protocolVersion}${connection.protocolVersion === '2025-06-18' ? ' (form-mode questions only)' : ''}`] : []),
      ...(connection?.serverCapabilities ? [`Offers: ${Object.keys(connection.serverCapabilities).join(', ') || 'nothing declared'}`] : []),
    ];
    item.tooltip = plain(lines.join('\n'));
    return item;
  }

  dispose(): void {
    this.unsubscribe.forEach((stop) => stop());
    this.changed.dispose();
  }
}
