/**
 * The History view (Agent Inputs container): every request of the window's life and, when
 * `elicitationHost.history.persist` is on, of earlier ones in this workspace, newest first.
 * A row opens the entry as a read-only document. Persisted in the workspace's storage
 * (masked answers only, see elicitation/history.ts); turning the setting off deletes what
 * was stored.
 */
import * as vscode from 'vscode';
import { History, type HistoryEntry, type HistoryOutcome, restoreHistory } from '../../elicitation/history';
import { historyText, when } from '../../elicitation/history-text';
import { sourceLabel } from '../../elicitation/request';
import { oneLine, plain } from '../text';
import { persistHistory } from '../settings';

export const HISTORY_SCHEME = 'elicitation-history';
const STORAGE_KEY = 'elicitationHost.history';
const PERSIST_SETTING = 'history.persist';

const ICONS: Record<HistoryOutcome, string> = {
  accepted: 'pass',
  declined: 'circle-slash',
  cancelled: 'close',
  withdrawn: 'reply',
  'answered elsewhere': 'remote',
  abandoned: 'debug-disconnect',
  'timed out': 'watch',
  'allowed once': 'pass',
  'allowed always': 'pass-filled',
  refused: 'circle-slash',
  'refused always': 'error',
};

/** The history, restored from the workspace's storage when persistence is on, and kept there. */
export function persistedHistory(state: vscode.Memento): { history: History; persistence: vscode.Disposable } {
  const history = new History(persistHistory() ? restoreHistory(state.get(STORAGE_KEY)) : []);
  const save = (): void => void state.update(STORAGE_KEY, persistHistory() ? history.entries : undefined);
  const unsubscribe = history.onDidChange(save);
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`elicitationHost.${PERSIST_SETTING}`)) save();
  });
  return { history, persistence: { dispose: () => (unsubscribe(), settings.dispose()) } };
}

/** The entry's document: its id, then who asked, which the tab shows. */
export function historyUri(entry: HistoryEntry): vscode.Uri {
  const name = oneLine(sourceLabel(entry.source), 80).replace(/[/\\]/g, '_');
  return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${entry.id}/${name}.txt` });
}

export class HistoryView implements vscode.TreeDataProvider<HistoryEntry>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HistoryEntry | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unsubscribe: () => void;

  constructor(private readonly history: History) {
    this.unsubscribe = history.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(entry?: HistoryEntry): HistoryEntry[] {
    return entry ? [] : [...this.history.entries];
  }

  getTreeItem(entry: HistoryEntry): vscode.TreeItem {
    const item = new vscode.TreeItem(oneLine(sourceLabel(entry.source), 120));
    item.id = entry.id;
    item.description = `${entry.outcome} · ${when(entry.askedAt)} · ${oneLine(entry.message, 100)}`;
    // A plain string tooltip: server text is never rendered as Markdown.
    item.tooltip = plain(`${sourceLabel(entry.source)}: ${entry.outcome}\n\n${entry.message}`, 1000);
    item.iconPath = new vscode.ThemeIcon(ICONS[entry.outcome]);
    item.contextValue = 'historyEntry';
    item.command = { command: 'vscode.open', title: 'Open', arguments: [historyUri(entry), { preview: true }] };
    return item;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = uri.path.split('/')[1] ?? '';
    const entry = this.history.find(id);
    return entry ? historyText(entry) : 'This entry is no longer in the history (it was cleared).\n';
  }

  dispose(): void {
    this.unsubscribe();
    this.changed.dispose();
  }
}
