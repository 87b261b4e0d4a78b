/**
 * What is waiting for the person: a status bar item with the number of open requests and
 * who asks (standing out when one arrived while the window was not focused, until it is
 * again), a list behind it, and the Pending Inputs tree with the same requests.
 */
import * as vscode from 'vscode';
import type { RequestState } from '../../elicitation/store';
import { type InputStore, openRequests } from '../../elicitation/store';
import { showInfo } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { iconSafe, oneLine, plain, sourceLabel } from '../text';
import { refreshAfterPrompts } from '../after-prompts';
import { Attention } from './attention';

export const SHOW_PENDING_COMMAND = 'elicitationHost.showPendingInputs';
export const OPEN_PENDING_COMMAND = 'elicitationHost.openPendingInput';

export function age(createdAt: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - createdAt) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
}

function kindLabel(state: RequestState): string {
  if (state.request.mode === 'url') return 'link';
  const n = state.request.questions.length;
  return n === 0 ? 'confirm' : n === 1 ? 'question' : `form, ${n} fields`;
}

export class PendingStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('elicitationHost.pending', vscode.StatusBarAlignment.Left, 100);
  private readonly unsubscribe: () => void;
  private readonly refresh = refreshAfterPrompts(() => this.update());
  private readonly attention = new Attention();
  private readonly windowState: vscode.Disposable;

  constructor(private readonly store: InputStore) {
    this.item.name = 'Pending Agent Inputs';
    this.item.command = SHOW_PENDING_COMMAND;
    this.unsubscribe = store.subscribe(this.refresh);
    this.windowState = vscode.window.onDidChangeWindowState(() => this.update());
    this.update();
  }

  private update(): void {
    const open = openRequests(this.store.state);
    const standOut = this.attention.update(
      open.map((state) => state.request.id),
      vscode.window.state.focused,
    );
    if (open.length === 0) {
      this.item.hide();
      return;
    }
    // Who asks, as every surface names it: an extension is never taken for a server.
    const servers = [...new Set(open.map(({ request: { source } }) => (source.requester === 'extension' ? `Extension: ${source.server}` : source.server)))];
    const who = servers.length === 1 ? servers[0] : `${servers[0]} +${servers.length - 1}`;
    this.item.text = `$(${standOut ? 'bell-dot' : 'comment-discussion'}) ${open.length} ${iconSafe(who, 40)}`;
    const away = standOut ? ' It came while this window was not focused.' : '';
    this.item.tooltip = plain(`${open.length} question${open.length === 1 ? '' : 's'} waiting for your answer (${servers.join(', ')}).${away} Click to choose one.`);
    // The only colours VS Code lets an extension's item take are warning and error.
    this.item.backgroundColor = standOut ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.unsubscribe();
    this.refresh.cancel();
    this.windowState.dispose();
    this.item.dispose();
  }
}

/** Lists the open requests (server, tool, message, age); resolves with the chosen id. */
/** Brings the chosen pending request to the person, or says it is gone. */
export function openPendingRequest(open: (requestId: string) => boolean, requestId: string | undefined): void {
  if (requestId && !open(requestId)) void showInfo('That question is no longer waiting.');
}

export async function pickPendingRequest(store: InputStore, quickInput: OwnQuickInput): Promise<string | undefined> {
  const open = openRequests(store.state);
  if (open.length === 0) {
    void showInfo('No agent is waiting for your input.');
    return undefined;
  }
  type Row = vscode.QuickPickItem & { id: string };
  const rows: Row[] = open.map((state) => ({
    id: state.request.id,
    label: iconSafe(sourceLabel(state.request.source), 120),
    description: `${kindLabel(state)} · ${age(state.request.createdAt)}`,
    detail: iconSafe(state.request.message, 300),
  }));
  const chosen = await quickInput.pick(rows, {
    title: 'Pending Agent Inputs',
    placeHolder: 'Choose a question to answer',
    matchOnDetail: true,
  });
  return chosen?.id;
}

export class PendingTreeProvider implements vscode.TreeDataProvider<RequestState>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: () => void;
  private readonly refresh = refreshAfterPrompts(() => this.changed.fire());

  constructor(private readonly store: InputStore) {
    this.unsubscribe = store.subscribe(this.refresh);
  }

  getChildren(element?: RequestState): RequestState[] {
    return element ? [] : openRequests(this.store.state);
  }

  getTreeItem(state: RequestState): vscode.TreeItem {
    const item = new vscode.TreeItem(oneLine(sourceLabel(state.request.source), 120));
    item.id = state.request.id;
    item.description = `${oneLine(state.request.message, 120)} · ${age(state.request.createdAt)}`;
    // A plain string tooltip: server text is never rendered as Markdown.
    item.tooltip = plain(`${sourceLabel(state.request.source)} (${kindLabel(state)})\n\n${state.request.message}`);
    item.iconPath = new vscode.ThemeIcon(state.request.mode === 'url' ? 'link-external' : state.request.questions.length > 1 ? 'checklist' : 'question');
    item.contextValue = 'pending';
    item.command = { command: OPEN_PENDING_COMMAND, title: 'Answer', arguments: [state.request.id] };
    return item;
  }

  dispose(): void {
    this.unsubscribe();
    this.refresh.cancel();
    this.changed.dispose();
  }
}
