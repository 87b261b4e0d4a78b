/**
 * The Agents tree: each configured ACP agent with its state (not started, starting, running,
 * ended, or waiting for the workspace's trust), and under a running one its sessions, each
 * with its mode and whether a turn runs or waits for the person (or, its panel closed while a
 * turn ran, that it ends with that turn). A session opens its panel; Close Session ends it.
 * Then each agent host this window connects to (agent-host-items.ts). Agent and session text
 * goes into labels and plain-text tooltips only.
 */
import * as vscode from 'vscode';
import type { AgentEntry, AgentsHost, AgentState } from '../agents/agents-host';
import type { AgentHosts } from '../agents/agent-hosts';
import type { SessionPanel } from '../agents/session-panel';
import { oneLine, plain } from '../text';
import { hostChildren, hostItem, type HostNode } from './agent-host-items';

export type AgentsNode = { readonly kind: 'agent'; readonly entry: AgentEntry } | { readonly kind: 'session'; readonly agent: string; readonly panel: SessionPanel } | HostNode;

export const OPEN_SESSION_COMMAND = 'elicitationHost.openAgentSession';

const STATE_ICONS: Record<AgentState, vscode.ThemeIcon> = {
  blocked: new vscode.ThemeIcon('workspace-untrusted', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  stopped: new vscode.ThemeIcon('circle-outline'),
  starting: new vscode.ThemeIcon('loading~spin'),
  running: new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed')),
  exited: new vscode.ThemeIcon('debug-stop'),
};

const STATE_TEXT: Record<AgentState, string> = {
  blocked: 'waiting for trust',
  stopped: 'not started',
  starting: 'starting…',
  running: 'running',
  exited: 'ended',
};

export class AgentsTreeProvider implements vscode.TreeDataProvider<AgentsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly agents: AgentsHost,
    private readonly hosts: AgentHosts,
  ) {
    this.unsubscribe = [agents.onDidChange.add(() => this.changed.fire()), hosts.onDidChange.add(() => this.changed.fire())];
  }

  /** A session's header changed (its mode, a turn started or ended). */
  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: AgentsNode): AgentsNode[] {
    if (!node) return [...this.agents.agents.map((entry) => ({ kind: 'agent' as const, entry })), ...this.hosts.hosts.map((host) => ({ kind: 'host' as const, host }))];
    if (node.kind === 'agent') return node.entry.sessions.map((panel) => ({ kind: 'session', agent: node.entry.agent.definition.name, panel }));
    if (node.kind === 'session') return [];
    return hostChildren(node);
  }

  getTreeItem(node: AgentsNode): vscode.TreeItem {
    if (node.kind !== 'agent' && node.kind !== 'session') return hostItem(node);
    if (node.kind === 'agent') {
      const { agent, state, detail, sessions } = node.entry;
      const name = agent.definition.name;
      const item = new vscode.TreeItem(oneLine(name, 120), sessions.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `agent:${name}`;
      item.iconPath = STATE_ICONS[state];
      item.description = oneLine([STATE_TEXT[state], sessions.length ? `${sessions.length} session${sessions.length === 1 ? '' : 's'}` : undefined].filter(Boolean).join(' · '), 200);
      item.tooltip = plain(
        [
          `${name}: ${[agent.definition.command, ...agent.definition.args].join(' ')}`,
          `From ${agent.fromWorkspace ? "this workspace's settings (runs only in a trusted workspace)" : 'your user settings'}`,
          ...(agent.mode ? [`New sessions start in mode "${agent.mode}"`] : []),
          ...(detail ? [detail] : []),
        ].join('\n'),
      );
      item.contextValue = `agent.${state}`;
      return item;
    }
    const header = node.panel.header();
    const item = new vscode.TreeItem(oneLine(header.title ?? 'new session', 120));
    item.id = `agent:${node.agent}/session:${node.panel.session.id}`;
    item.iconPath = new vscode.ThemeIcon(header.state === 'waiting' ? 'bell-dot' : header.state === 'running' ? 'sync~spin' : 'comment-discussion');
    const mode = header.mode?.options.find((o) => o.value === header.mode?.current)?.name;
    const ending = node.panel.endingWithTurn ? 'panel closed: ends when its turn does' : undefined;
    item.description = oneLine([mode ? `mode: ${mode}` : undefined, header.state === 'waiting' ? 'waiting for you' : header.state === 'running' ? 'working' : undefined, ending].filter(Boolean).join(' · '), 200);
    item.tooltip = plain([`${node.agent} in ${header.cwd}`, ...(header.modeWarning ? [header.modeWarning] : []), ...(ending ? [`Its panel was closed while a turn ran: the session ends when the turn does (open it to keep it).`] : [])].join('\n'));
    item.command = { command: OPEN_SESSION_COMMAND, title: 'Open Session', arguments: [node.agent, node.panel.session.id] };
    item.contextValue = 'agentSession';
    return item;
  }

  dispose(): void {
    for (const stop of this.unsubscribe) stop();
    this.changed.dispose();
  }
}
