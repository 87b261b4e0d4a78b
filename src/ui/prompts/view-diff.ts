/**
 * "View Diff": an agent's edit, shown before the person decides, in VS Code's own diff
 * editor: the file as it is (its open editor's text, unsaved changes included, else the
 * disk) against the text the edit would leave, both read-only documents of our own scheme,
 * so nothing there can be saved over the file, one editor per file. The modal cannot stay up
 * beside an editor, so while the diffs are read the question steps aside and waits in
 * Pending Inputs (native-prompter.ts, readAside): a quick input would lie over the tab bar.
 *
 * Only a file inside the session's folders is read, checked again here as the agent's own
 * reads are (file-access.ts, folder-files.ts: the path leads inside, no link followed); the
 * dialog says which files are not shown and why. An edit whose snippet cannot be placed in
 * the file as it is now (not found exactly once) is shown as the agent sent it, and its tab
 * says so.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { checkFileAccess, FileAccessError } from '../../acp/file-access';
import { readInside } from '../../acp/folder-files';
import { MAX_DIFF_TEXT, proposedText } from '../../acp/proposed-changes';
import { errorMessage } from '../../base/error-message';
import type { FileChange } from '../../elicitation/request';
import { oneLine } from '../text';

export const DIFF_SCHEME = 'elicitation-host-diff';

/** The dialog button. */
export const VIEW_DIFF = 'View Diff';

/** Diffs kept for reopening (a tab may be reopened from history): the most recent only. */
const KEPT = 40;

/** What the dialog adds about files it cannot show: one line each, or undefined when every file can be shown. */
export function notShownNote(changes: readonly FileChange[]): string | undefined {
  const refused = changes.filter((c) => c.refused !== undefined);
  if (refused.length === 0) return undefined;
  return refused.map((c) => `No diff for ${oneLine(c.path, 200)}: ${oneLine(c.refused ?? '', 300)}.`).join('\n');
}

/** The changes View Diff can open. */
export function viewable(changes: readonly FileChange[] | undefined): FileChange[] {
  return (changes ?? []).filter((c) => c.refused === undefined);
}

/** The file's text as the person has it: an open editor's (saved or not), else the disk's; undefined when it does not exist. */
async function currentText(change: FileChange): Promise<string | undefined> {
  let target;
  try {
    target = await checkFileAccess(change.path, change.folders, 'read');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const uris = new Set([vscode.Uri.file(change.path).toString(), vscode.Uri.file(target.real).toString()]);
  const open = vscode.workspace.textDocuments.find((d) => uris.has(d.uri.toString()));
  if (open) return open.getText();
  const { size } = await stat(target.real);
  if (size > MAX_DIFF_TEXT) throw new FileAccessError(`it is too large to show (${size.toLocaleString('en-US')} bytes)`);
  return readInside(target);
}

/** One file's diff, as opened. */
export interface OpenedDiff {
  /** The file's name, and its path. */
  readonly name: string;
  readonly path: string;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
  /** The editor's title: "draft.md (as it is ↔ claude's edit)". */
  readonly title: string;
}

export class ProposedDiffs implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  private document(side: string, name: string, text: string): vscode.Uri {
    // The file's own name last, so the editor picks its language.
    const uri = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${this.count}/${side}/${name}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  /**
   * Opens one diff editor per file, `who` (the agent) naming the proposed side. Returns the
   * diffs opened, and the files that could not be shown, each with why (the check or the read
   * failed since the question was asked).
   */
  async open(changes: readonly FileChange[], who: string): Promise<{ readonly opened: OpenedDiff[]; readonly problems: string[] }> {
    const problems: string[] = [];
    const opened: OpenedDiff[] = [];
    for (const change of changes) {
      const name = basename(change.path) || 'file';
      let current: string | undefined;
      try {
        current = await currentText(change);
      } catch (error) {
        problems.push(`${change.path}: ${error instanceof FileAccessError ? error.why : errorMessage(error)}`);
        continue;
      }
      this.count++;
      const proposed = proposedText(current, change.edits);
      // Not placeable in the file as it is: the agent's own old and new text, said so in the tab.
      const [left, right, how] =
        proposed !== undefined
          ? [current ?? '', proposed, current === undefined ? 'new file' : 'as it is']
          : [change.edits.map((e) => e.oldText ?? '').join('\n…\n'), change.edits.map((e) => e.newText).join('\n…\n'), "as the agent sent it: its old text is not in the file once"];
      const diff: OpenedDiff = { name, path: change.path, left: this.document('now', name, left), right: this.document('proposed', name, right), title: oneLine(`${name} (${how} ↔ ${who}'s edit)`, 200) };
      await vscode.commands.executeCommand('vscode.diff', diff.left, diff.right, diff.title, { preview: false });
      opened.push(diff);
    }
    for (const key of [...this.texts.keys()].slice(0, Math.max(0, this.texts.size - KEPT))) this.texts.delete(key);
    return { opened, problems };
  }
}
