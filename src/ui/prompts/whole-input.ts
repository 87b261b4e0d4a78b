/**
 * "Show Whole Command": what a person approves, whole, when a dialog shows only part of it
 * (a long command: its start, its end and what runs). VS Code's modal cannot show a
 * document beside it and blocks the window while it is up, so the whole opens in a
 * read-only editor and the question waits in a quick pick that stays open while the person
 * reads and scrolls ("Back to the Decision" brings the dialog back; Decline is there too).
 */
import * as vscode from 'vscode';
import { showInvisible } from '../../elicitation/plain-text';
import type { WholeInput } from '../../elicitation/request';
import { declineRows, messageRows, type PromptFrame, type Row, runQuickPick, separator, type StepResult } from '../quick-input/quick-input-frame';

export const WHOLE_SCHEME = 'elicitation-host-whole';

/** Documents kept for reopening (a tab may be reopened from history): the most recent only. */
const KEPT = 20;

/** The dialog button that opens the whole: "Show Whole Command". */
export function showWholeLabel(whole: WholeInput): string {
  return `Show Whole ${whole.name.replace(/\b\w/g, (c) => c.toUpperCase())}`;
}

/** Read-only documents holding the whole of what is approved, invisible characters shown as in the dialog. */
export class WholeInputDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Opens the whole in an editor; its tab says what it is and who asks. */
  async open(whole: WholeInput, who: string): Promise<void> {
    const name = `${whole.name} from ${who}`.replace(/[/\\:*?"<>|\s]+/g, ' ').trim().slice(0, 80);
    const uri = vscode.Uri.from({ scheme: WHOLE_SCHEME, path: `/${++this.count}/${name}` });
    this.texts.set(uri.toString(), showInvisible(whole.text));
    for (const key of [...this.texts.keys()].slice(0, Math.max(0, this.texts.size - KEPT))) this.texts.delete(key);
    let document = await vscode.workspace.openTextDocument(uri);
    // An unknown language keeps plain text.
    document = await vscode.languages.setTextDocumentLanguage(document, whole.language).then(
      (changed) => changed,
      () => document,
    );
    await vscode.window.showTextDocument(document, { preview: false });
  }
}

/**
 * While the person reads what opened in an editor (`what`: "the whole command", "the
 * diff"): a quick pick that stays open (the editor can be scrolled meanwhile). Accepting it
 * goes back to the decision; Decline declines.
 */
export function whileReading(frame: PromptFrame, what: string): Promise<StepResult> {
  return runQuickPick(
    frame,
    (pick) => {
      const back: Row = { label: '$(arrow-left) Back to the Decision', role: 'accept', alwaysShow: true };
      const open = `${what.charAt(0).toUpperCase()}${what.slice(1)}`;
      pick.items = [...messageRows(`${open} is open in an editor. Read it there: this question waits.`), separator(), back, ...declineRows(frame)];
      pick.activeItems = [back];
      pick.placeholder = `Read ${what}, then go back to the decision`;
    },
    (pick) => (pick.selectedItems[0]?.role === 'accept' ? { kind: 'value', value: undefined } : undefined),
  );
}
