/**
 * An agent's `fs/read_text_file` and `fs/write_text_file` in VS Code. Reading: the text of an
 * open editor wins over the disk (the person's unsaved work is what they see, and what the
 * agent should see). Writing: one workspace edit of the whole text (a new file is created by
 * the same edit), so Undo takes it back; the file is shown beside the person's work without
 * taking focus, and saved, since the agent's next command reads the disk. The access rules
 * (inside the session's directories, never while untrusted) ran before either is called.
 */
import * as vscode from 'vscode';
import type { AgentFiles } from '../../acp/ports';

function openDocument(path: string): vscode.TextDocument | undefined {
  const uri = vscode.Uri.file(path).toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
}

export const editorFiles: AgentFiles = {
  async read(path) {
    const open = openDocument(path);
    if (open) return open.getText();
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
  },

  async write(path, content) {
    const uri = vscode.Uri.file(path);
    const edit = new vscode.WorkspaceEdit();
    let document = openDocument(path);
    if (!document) {
      let exists = true;
      try {
        await vscode.workspace.fs.stat(uri);
      } catch {
        exists = false;
      }
      if (!exists) edit.createFile(uri, { ignoreIfExists: true });
      else document = await vscode.workspace.openTextDocument(uri);
    }
    if (document) {
      const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
      edit.replace(uri, whole, content);
    } else {
      edit.insert(uri, new vscode.Position(0, 0), content);
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code did not apply the edit to ${path}`);
    const written = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(written, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
    if (!(await written.save())) throw new Error(`VS Code did not save ${path}`);
  },
};
