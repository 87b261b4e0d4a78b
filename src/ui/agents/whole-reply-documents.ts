/**
 * Open Whole Reply's documents: the whole of a reply past its cap (whole-replies.ts writes it
 * to a file), read-only in an editor, its text read from the file when it opens.
 */
import * as vscode from 'vscode';

export const WHOLE_REPLY_SCHEME = 'elicitation-host-reply';

/** Open Whole Reply's documents: read-only, their text read from the file when opened. */
export class WholeReplyDocuments implements vscode.TextDocumentContentProvider {
  private count = 0;
  private readonly paths = new Map<string, string>();

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const path = this.paths.get(uri.toString());
    if (!path) return '';
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
  }

  /** Opens the file `path` holds, its tab named `title`. */
  async open(path: string, title: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: WHOLE_REPLY_SCHEME, path: `/${++this.count}/${title.replace(/[/\\:*?"<>|]+/g, ' ').trim().slice(0, 80)}.md` });
    this.paths.set(uri.toString(), path);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
  }
}
