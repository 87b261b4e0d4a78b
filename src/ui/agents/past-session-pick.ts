/**
 * Open Past Agent Session…: which agent (when not given), the agent started if it is not
 * running, then its past sessions in this folder to choose from, with title and time (the
 * sessions open here before a reload first, then its `session/list`), and the chosen one
 * reopened. An agent that declares none of it says so, rather than offering an empty list.
 */
import * as vscode from 'vscode';
import { canReopen, noPastSessions } from '../../acp/past-sessions';
import { when } from '../../elicitation/history-text';
import { showInfo } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { iconSafe } from '../text';
import type { AcpAgents } from './acp-agents';

export async function openPastSession(agents: AcpAgents, quickInput: OwnQuickInput, name: string): Promise<void> {
  const support = await agents.startForPastSessions(name);
  if (!canReopen(support)) {
    void showInfo(`${noPastSessions(name)}.`);
    return;
  }
  const entry = agents.agents.find((a) => a.agent.definition.name === name);
  const remembered = entry?.remembered ?? [];
  const listed = support.list ? await agents.pastSessions(name) : [];
  type Item = vscode.QuickPickItem & { readonly sessionId?: string; readonly title?: string };
  const row = (id: string, title: string | undefined, at: number | undefined, before: boolean): Item => ({
    label: iconSafe(title ?? 'untitled session', 120),
    description: [before ? 'open here before' : undefined, at !== undefined ? when(at).slice(0, 16) : undefined].filter(Boolean).join(' · '),
    sessionId: id,
    ...(title !== undefined && { title }),
  });
  const items: Item[] = [
    ...remembered.map((r) => row(r.sessionId, r.title, r.updatedAt, true)),
    ...listed.filter((s) => !remembered.some((r) => r.sessionId === s.id)).map((s) => row(s.id, s.title, s.updatedAt, false)),
  ];
  if (items.length === 0) {
    void showInfo(support.list ? `${name} has no other sessions in this folder.` : `${name} does not list its past sessions (it declares no session/list), and none were open here before.`);
    return;
  }
  // It comes after the agent has started and listed: meanwhile the Agents view redraws the row
  // that was clicked and takes the focus back, which would close the pick the moment it shows.
  const picked = await quickInput.pick(items, { title: `Past sessions of ${name}`, placeHolder: 'Which session? It opens with its conversation where the agent replays it.', matchOnDescription: true, ignoreFocusOut: true });
  if (picked?.sessionId) await agents.reopen(name, picked.sessionId, picked.title);
}
