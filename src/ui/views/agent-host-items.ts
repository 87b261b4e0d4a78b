/**
 * The agent hosts' rows of the Agents tree (agents-view.ts): each host with its state
 * (connected with its protocol version, connecting, reconnecting, or why not: the token
 * refused, no common protocol version, unreachable, disconnected, no token), under it the
 * host's agents and its sessions waiting for the person; a session opens its waiting question.
 * Host text (agent names, session titles) goes into labels and plain-text tooltips only.
 */
import * as vscode from 'vscode';
import type { AgentInfo } from '../../ahp/wire/root';
import type { HostState, HostView, WaitingSession } from '../agent-hosts/agent-host-connections';
import { oneLine, plain } from '../text';

export type HostNode =
  | { readonly kind: 'host'; readonly host: HostView }
  | { readonly kind: 'hostAgent'; readonly host: string; readonly agent: AgentInfo }
  | { readonly kind: 'hostSession'; readonly host: string; readonly session: WaitingSession };

export const OPEN_HOST_SESSION_COMMAND = 'elicitationHost.openAgentHostSession';

const ICONS: Record<HostState, vscode.ThemeIcon> = {
  connecting: new vscode.ThemeIcon('loading~spin'),
  connected: new vscode.ThemeIcon('remote', new vscode.ThemeColor('testing.iconPassed')),
  reconnecting: new vscode.ThemeIcon('loading~spin'),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  disconnected: new vscode.ThemeIcon('debug-disconnect'),
  'no-token': new vscode.ThemeIcon('key', new vscode.ThemeColor('problemsWarningIcon.foreground')),
};

export function hostChildren(node: HostNode): HostNode[] {
  if (node.kind !== 'host') return [];
  const { host } = node;
  return [...host.agents.map((agent) => ({ kind: 'hostAgent' as const, host: host.name, agent })), ...host.waiting.map((session) => ({ kind: 'hostSession' as const, host: host.name, session }))];
}

function stateText(host: HostView): string {
  switch (host.state) {
    case 'connected':
      return `connected${host.protocolVersion ? ` · AHP ${host.protocolVersion}` : ''}`;
    case 'connecting':
      return 'connecting…';
    case 'reconnecting':
      return 'reconnecting…';
    default:
      return host.why ?? host.state;
  }
}

export function hostItem(node: HostNode): vscode.TreeItem {
  if (node.kind === 'host') {
    const { host } = node;
    const waiting = host.waiting.reduce((n, s) => n + s.items.length, 0);
    const hasChildren = host.agents.length > 0 || host.waiting.length > 0;
    const item = new vscode.TreeItem(oneLine(host.name, 120), hasChildren ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    // Another id while it has no rows under it: VS Code keeps an id's first collapsible state, so the rows would come in collapsed.
    item.id = `agentHost:${host.name}${hasChildren ? '' : ':empty'}`;
    item.iconPath = ICONS[host.state];
    item.description = oneLine([stateText(host), waiting > 0 ? `${waiting} waiting` : undefined].filter(Boolean).join(' · '), 240);
    item.tooltip = plain(
      [
        `Agent host ${host.name} at ${host.address}`,
        host.local ? "The agent host VS Code publishes on this machine: its token is read from VS Code's own entry each time." : 'Its connection token is kept in VS Code\'s secret storage.',
        stateText(host),
        ...(host.detail ? [host.detail] : []),
      ].join('\n'),
    );
    item.contextValue = `agentHost.${host.state}`;
    return item;
  }
  if (node.kind === 'hostAgent') {
    const { agent } = node;
    const item = new vscode.TreeItem(oneLine(agent.displayName ?? agent.provider, 120));
    item.id = `agentHost:${node.host}/agent:${agent.provider}`;
    item.iconPath = new vscode.ThemeIcon('hubot');
    item.description = oneLine(agent.displayName && agent.displayName !== agent.provider ? `agent · ${agent.provider}` : 'agent', 120);
    item.tooltip = plain(`${agent.displayName ?? agent.provider} (${agent.provider}), an agent of the host ${node.host}: its questions come here while you are connected.`);
    item.contextValue = 'agentHostAgent';
    return item;
  }
  const { session } = node;
  const count = session.items.length;
  const item = new vscode.TreeItem(oneLine(session.title !== undefined && session.title.trim() !== '' ? session.title : 'untitled session', 120));
  item.id = `agentHost:${node.host}/session:${session.uri}`;
  item.iconPath = new vscode.ThemeIcon('bell-dot');
  item.description = oneLine(`waiting for you${count > 1 ? ` (${count})` : ''} · ${session.agent}`, 200);
  item.tooltip = plain(`${session.agent} waits for your answer in this session (${session.items.map((i) => (i.kind === 'tool' ? 'a tool call to confirm' : 'a question')).join(', ')}). Click to answer.`);
  item.command = { command: OPEN_HOST_SESSION_COMMAND, title: 'Answer', arguments: [node.host, session.uri] };
  item.contextValue = 'agentHostSession';
  return item;
}
