/**
 * The Agents tree: each configured ACP agent with its state (not started, starting, running,
 * ended, or waiting for the workspace's trust), and under it its sessions open in this window,
 * each with its mode and whether a turn runs or waits for the person (or, its panel closed while
 * a turn ran, that it ends with that turn; a click opens its panel, Close Session ends it), the
 * sessions open here before a reload (a click reopens them), and its past sessions in the
 * folder, with title and time, where the agent lists them (a click reopens one); an agent that
 * declares none of it says so. Then each agent host this window connects to
 * (agent-host-items.ts). Agent and session text goes into labels and plain-text tooltips only.
 */
import * as vscode from 'vscode';
import { canReopen, noPastSessions, type PastSession } from '../../acp/past-sessions';
import { errorMessage } from '../../base/error-message';
import { when } from '../../elicitation/history-text';
import type { AgentEntry, AcpAgents, AgentState } from '../agents/acp-agents';
import type { AgentHostConnections } from '../agent-hosts/agent-host-connections';
import type { RememberedSession } from '../agents/session-memory';
import type { SessionPanel } from '../agents/session-panel';
import { oneLine, plain } from '../text';
import { hostChildren, hostItem, type HostNode } from './agent-host-items';

export type AgentsNode =
  | { readonly kind: 'agent'; readonly entry: AgentEntry }
  | { readonly kind: 'session'; readonly agent: string; readonly panel: SessionPanel; readonly reopenable: boolean }
  /** Open here before (a reload, the agent stopped), not open now. */
  | { readonly kind: 'remembered'; readonly agent: string; readonly session: RememberedSession; readonly closed: boolean }
  | { readonly kind: 'past-sessions'; readonly entry: AgentEntry }
  | { readonly kind: 'past'; readonly agent: string; readonly session: PastSession }
  /** A line that says something (none listed, why not, how to list them). */
  | { readonly kind: 'note'; readonly agent: string; readonly id: string; readonly text: string; readonly icon: string; readonly startsAgent?: boolean }
  | HostNode;

export const OPEN_SESSION_COMMAND = 'elicitationHost.openAgentSession';
/** Reopens one past session: (agent, session id, title?). */
export const REOPEN_SESSION_COMMAND = 'elicitationHost.reopenAgentSession';
/** Open Past Agent Session…: starts the agent if needed and lists its past sessions to reopen one. */
export const PAST_SESSIONS_COMMAND = 'elicitationHost.openPastAgentSession';

/** Local date and time to the minute. */
function shortWhen(at: number): string {
  return when(at).slice(0, 16);
}

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
    private readonly agents: AcpAgents,
    private readonly hosts: AgentHostConnections,
  ) {
    this.unsubscribe = [agents.onDidChange.add(() => this.changed.fire()), hosts.onDidChange.add(() => this.changed.fire())];
  }

  /** A session's header changed (its mode, a turn started or ended). */
  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: AgentsNode): AgentsNode[] | Promise<AgentsNode[]> {
    if (!node) return [...this.agents.agents.map((entry) => ({ kind: 'agent' as const, entry })), ...this.hosts.hosts.map((host) => ({ kind: 'host' as const, host }))];
    switch (node.kind) {
      case 'agent':
        return this.agentChildren(node.entry);
      case 'past-sessions':
        return this.pastSessions(node.entry);
      case 'session':
      case 'remembered':
      case 'past':
      case 'note':
        return [];
      default:
        return hostChildren(node);
    }
  }

  private agentChildren(entry: AgentEntry): AgentsNode[] {
    const agent = entry.agent.definition.name;
    const reopenable = entry.support !== undefined && canReopen(entry.support);
    const children: AgentsNode[] = [
      ...entry.sessions.map((panel) => ({ kind: 'session' as const, agent, panel, reopenable })),
      ...entry.remembered.map((session) => ({ kind: 'remembered' as const, agent, session, closed: entry.closed.has(session.sessionId) })),
    ];
    const { support } = entry;
    if (support && !support.list) {
      const text = reopenable ? `${agent} does not list its past sessions (it declares no session/list); those open here come back after a reload` : noPastSessions(agent);
      children.push({ kind: 'note', agent, id: 'no-list', text, icon: 'info' });
    } else if (entry.state !== 'blocked') {
      children.push({ kind: 'past-sessions', entry });
    }
    return children;
  }

  private async pastSessions(entry: AgentEntry): Promise<AgentsNode[]> {
    const agent = entry.agent.definition.name;
    if (entry.state !== 'running') {
      return [{ kind: 'note', agent, id: 'start', text: `Start ${agent} to list its past sessions in this folder`, icon: 'play', startsAgent: true }];
    }
    try {
      // Those open here before are listed above already.
      const remembered = new Set(entry.remembered.map((r) => r.sessionId));
      const past = (await this.agents.pastSessions(agent)).filter((s) => !remembered.has(s.id));
      if (past.length === 0) return [{ kind: 'note', agent, id: 'none', text: 'No other sessions in this folder', icon: 'info' }];
      return past.map((session) => ({ kind: 'past', agent, session }));
    } catch (error) {
      return [{ kind: 'note', agent, id: 'failed', text: errorMessage(error), icon: 'warning' }];
    }
  }

  getTreeItem(node: AgentsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'agent':
        return this.agentItem(node.entry);
      case 'session':
        return this.sessionItem(node);
      case 'remembered':
      case 'past':
        return this.pastItem(node);
      case 'past-sessions': {
        const item = new vscode.TreeItem('Past sessions', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `agent:${node.entry.agent.definition.name}/past`;
        item.iconPath = new vscode.ThemeIcon('history');
        item.tooltip = `${node.entry.agent.definition.name}'s sessions in this folder, as it lists them (session/list)`;
        return item;
      }
      case 'note': {
        const item = new vscode.TreeItem(oneLine(node.text, 200));
        item.id = `agent:${node.agent}/note:${node.id}`;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.tooltip = plain(node.text);
        if (node.startsAgent) item.command = { command: PAST_SESSIONS_COMMAND, title: 'Open Past Agent Session…', arguments: [node] };
        return item;
      }
      default:
        return hostItem(node);
    }
  }

  /** A session that is not open: remembered from before, or in the agent's list. A click reopens it. */
  private pastItem(node: Extract<AgentsNode, { kind: 'remembered' | 'past' }>): vscode.TreeItem {
    const { session, agent } = node;
    const id = node.kind === 'past' ? node.session.id : node.session.sessionId;
    const title = session.title ?? 'untitled session';
    const item = new vscode.TreeItem(oneLine(title, 120));
    item.id = `agent:${agent}/${node.kind}:${id}`;
    item.iconPath = new vscode.ThemeIcon(node.kind === 'remembered' ? 'debug-restart' : 'comment');
    const at = session.updatedAt;
    item.description = oneLine([at !== undefined ? shortWhen(at) : undefined, node.kind === 'remembered' ? (node.closed ? 'closed · click to reopen' : 'open before · click to reopen') : undefined].filter(Boolean).join(' · '), 200);
    item.tooltip = plain([title, ...(at !== undefined ? [`Last active ${shortWhen(at)}`] : []), `A click reopens it in ${agent}: the conversation is replayed where ${agent} can, and goes on.`].join('\n'));
    item.command = { command: REOPEN_SESSION_COMMAND, title: 'Reopen Session', arguments: [agent, id, session.title] };
    item.contextValue = 'agentPastSession';
    return item;
  }

  private agentItem(entry: AgentEntry): vscode.TreeItem {
    const { agent, state, detail, sessions, remembered } = entry;
    const name = agent.definition.name;
    const item = new vscode.TreeItem(oneLine(name, 120), sessions.length + remembered.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
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

  private sessionItem(node: Extract<AgentsNode, { kind: 'session' }>): vscode.TreeItem {
    const header = node.panel.header();
    const item = new vscode.TreeItem(oneLine(header.title ?? 'new session', 120));
    item.id = `agent:${node.agent}/session:${node.panel.session.id}`;
    item.iconPath = new vscode.ThemeIcon(header.state === 'waiting' ? 'bell-dot' : header.state === 'running' ? 'sync~spin' : 'comment-discussion');
    const mode = header.mode?.options.find((o) => o.value === header.mode?.current)?.name;
    const ending = node.panel.endingWithTurn ? 'panel closed: ends when its turn does' : undefined;
    item.description = oneLine([mode ? `mode: ${mode}` : undefined, header.state === 'waiting' ? 'waiting for you' : header.state === 'running' ? 'working' : undefined, ending].filter(Boolean).join(' · '), 200);
    item.tooltip = plain([`${node.agent} in ${header.cwd}`, ...(header.modeWarning ? [header.modeWarning] : []), ...(ending ? [`Its panel was closed while a turn ran: the session ends when the turn does (open it to keep it).`] : [])].join('\n'));
    // A session whose agent has ended comes back by reopening, where the agent can.
    item.command =
      header.state === 'closed' && node.reopenable
        ? { command: REOPEN_SESSION_COMMAND, title: 'Reopen Session', arguments: [node.agent, node.panel.session.id, header.title] }
        : { command: OPEN_SESSION_COMMAND, title: 'Open Session', arguments: [node.agent, node.panel.session.id] };
    if (header.state === 'closed' && node.reopenable) item.description = oneLine([item.description, 'ended · click to reopen'].filter(Boolean).join(' · '), 200);
    item.contextValue = 'agentSession';
    return item;
  }

  dispose(): void {
    for (const stop of this.unsubscribe) stop();
    this.changed.dispose();
  }
}
