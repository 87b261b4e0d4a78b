/**
 * An agent's `fs/read_text_file` and `fs/write_text_file` in VS Code. The rules (a trusted
 * workspace, inside the session's directories) ran before either is called; the disk is
 * read and written through folder-files.ts, which follows no link made after that check.
 * VS Code's own reads and saves go by name and would follow one, so they do not touch the
 * agent's files.
 *
 * Reading: an editor's unsaved text wins over the disk (the person's work in progress is
 * what they see, and what the agent should see); otherwise the disk.
 * Writing: the disk, then the file is shown beside the person's work without taking focus.
 * An editor on the file takes the new text from the disk as VS Code takes any change made
 * outside it, as an edit that Undo takes back; for that, an existing file is opened before
 * it is written. A file with unsaved changes is not written: those are the person's, and
 * saving over them would both lose them and write by name.
 */
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { FileAccessError, type FileTarget, linesOf, untrustedRefusal } from '../../acp/file-access';
import { readInside, writeInside } from '../../acp/folder-files';
import type { AgentFiles } from '../../acp/ports';

/** How long a write waits for an open editor to show the new text (VS Code reloads it when its file watcher reports the change). */
const SHOWN_WITHIN_MS = 3000;

/** The file's open document: by the path asked, or by its real path (a link inside the folder opened as what it leads to). */
function openDocument(target: FileTarget): vscode.TextDocument | undefined {
  const uris = new Set([vscode.Uri.file(resolve(target.asked)).toString(), vscode.Uri.file(target.real).toString()]);
  return vscode.workspace.textDocuments.find((d) => uris.has(d.uri.toString()));
}

/** The client checked trust already; checked here too, since this is where files are touched. */
function refuseUntrusted(target: FileTarget): void {
  if (!vscode.workspace.isTrusted) {
    throw untrustedRefusal(target.what, target.asked);
  }
}

/** Resolves once `document` holds `text`, or after SHOWN_WITHIN_MS: the write is done either way. */
function shown(document: vscode.TextDocument, text: string): Promise<void> {
  const holds = (): boolean => document.getText() === text || document.getText() === text.replace(/\r?\n/g, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
  if (holds()) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(finish, SHOWN_WITHIN_MS);
    const listener = vscode.workspace.onDidChangeTextDocument((e) => e.document === document && holds() && finish());
    function finish(): void {
      clearTimeout(timer);
      listener.dispose();
      done();
    }
  });
}

export const editorFiles: AgentFiles = {
  async read(target, window = {}) {
    refuseUntrusted(target);
    const open = openDocument(target);
    if (open?.isDirty) return linesOf(open.getText(), window.line, window.limit);
    return readInside(target, window);
  },

  async write(target, content) {
    refuseUntrusted(target);
    let document = openDocument(target);
    if (document?.isDirty) {
      throw new FileAccessError(`Refused to write ${target.asked}: it has unsaved changes in an editor; the person saves or reverts them first`);
    }
    if (!document && target.missing.length === 0) {
      // Opened before the write so that its editor has the old text to go back to; a file VS Code cannot show as text is written all the same.
      document = await vscode.workspace.openTextDocument(vscode.Uri.file(target.real)).then(
        (d) => d,
        () => undefined,
      );
    }
    await writeInside(target, content);
    document ??= await vscode.workspace.openTextDocument(vscode.Uri.file(target.real));
    await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
    await shown(document, content);
  },
};
