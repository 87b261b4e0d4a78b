/**
 * Connect an Agent…: points an agent (Claude Code, Codex, Gemini CLI…) at the gateway in
 * one step. Project files are shown as a diff and written only when the person says so;
 * they refer to the token through ELICITATION_HOST_MCP_TOKEN and never hold it. Commands
 * and snippets for settings outside the workspace are shown with a Copy button, and so is
 * a project file that a symbolic link leads out of the workspace folder: it is never
 * written (checked again just before writing, in case a link appeared meanwhile).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FileChange, GatewayRecipeId, PreparedRecipe, Snippet } from '../../gateway/bundle';
import type { GatewayHost } from './gateway-host';
import { loadGateway } from './gateway-loader';
import { showDialog, showError, showInfo, showWarning } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { vsCodeAtLeast } from '../vscode-version';

export const SETUP_SCHEME = 'elicitation-host-setup';

/** Read-only documents for the before/after of a proposed change. */
export class SetupDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  show(key: string, text: string): vscode.Uri {
    this.texts.set(key, text);
    return vscode.Uri.from({ scheme: SETUP_SCHEME, path: `/${key}` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path.slice(1)) ?? '';
  }
}

function readIn(folder: vscode.WorkspaceFolder | undefined): (path: string) => string | undefined {
  return (path) => {
    if (!folder) return undefined;
    try {
      return readFileSync(join(folder.uri.fsPath, path), 'utf8');
    } catch {
      return undefined;
    }
  };
}

export class AgentConnector {
  constructor(
    private readonly host: GatewayHost,
    private readonly documents: SetupDocuments,
    private readonly quickInput: OwnQuickInput,
  ) {}

  /** The whole flow; `agent` skips the pick (tests, and links from the README). */
  async run(agent?: GatewayRecipeId): Promise<PreparedRecipe | undefined> {
    const gateway = await this.host.start();
    const { GATEWAY_RECIPES, prepareRecipe } = loadGateway();
    const id =
      agent ??
      (
        await this.quickInput.pick(
          GATEWAY_RECIPES.filter((a) => a.id !== 'vscode' || writesDotMcpJson(vscode.version)).map((a) => ({ label: a.label, id: a.id })),
          { title: 'Connect an Agent', placeHolder: 'Which agent should reach your servers through Elicitation Host?' },
        )
      )?.id;
    if (!id) return undefined;
    const folder = vscode.workspace.workspaceFolders?.[0];
    const { outsideWorkspace } = loadGateway();
    const setup = prepareRecipe(id, {
      servers: gateway.servers().map((s) => ({ name: s.name, url: s.url })),
      permissionHookUrl: gateway.permissionHookUrl,
      permissionServerUrl: gateway.permissionServerUrl,
      read: readIn(folder),
      ...(folder && { refuse: (path: string) => outsideWorkspace(folder.uri.fsPath, path) }),
      editorReadsDotMcpJson: readsDotMcpJson(vscode.version),
    });
    for (const problem of setup.problems) void showError(`Connect ${setup.label}: ${problem}`);
    if (setup.files.length > 0) {
      if (folder) await this.offerFiles(setup, folder);
      else void showWarning(`Connect ${setup.label}: open a folder first; its settings are project files.`);
    }
    for (const snippet of setup.snippets) await this.offerSnippet(setup, snippet);
    if (setup.notes.length > 0) void showInfo(`${setup.label}: ${setup.notes.join(' ')}`);
    return setup;
  }

  private async offerFiles(setup: PreparedRecipe, folder: vscode.WorkspaceFolder): Promise<void> {
    for (const change of setup.files) {
      const key = `${setup.agent}/${change.path}`;
      const before = this.documents.show(`${key}.before`, change.before ?? '');
      const after = this.documents.show(key, change.content);
      // Not a preview: a second file's diff would replace the first before the person saw it.
      await vscode.commands.executeCommand('vscode.diff', before, after, `${change.path} (Connect ${setup.label})`, { preview: false });
    }
    const paths = setup.files.map((f) => f.path).join(', ');
    const replaced = setup.files.flatMap((f) => f.replaced.map((name) => `${f.path}: "${name}"`));
    const detail = [
      `The files refer to the token as $${loadGateway().TOKEN_VARIABLE}; they never hold it.`,
      ...(replaced.length > 0 ? [`Replaces entries that were not ours: ${replaced.join(', ')}.`] : []),
    ].join('\n');
    const write = await showDialog({ kind: 'info', heading: `Write ${paths} for ${setup.label}?`, detail, buttons: [{ title: 'Write' }] });
    if (write?.title !== 'Write') return;
    const written: string[] = [];
    for (const change of setup.files) {
      const why = loadGateway().outsideWorkspace(folder.uri.fsPath, change.path);
      if (why !== undefined) {
        void showError(`Connect ${setup.label}: ${change.path} ${why}: not written.`);
        continue;
      }
      await writeChange(folder, change);
      written.push(change.path);
    }
    if (written.length > 0) void showInfo(`${setup.label} is set up in ${written.join(', ')}.`);
  }

  private async offerSnippet(setup: PreparedRecipe, snippet: Snippet): Promise<void> {
    const copy = await showDialog({
      kind: 'info',
      heading: `${setup.label}: ${snippet.title}`,
      detail: snippet.text + (snippet.copyWithToken ? "\n\nCopy puts the token itself in its place: paste it into the agent's own settings only." : ''),
      buttons: [...(snippet.runInTerminal ? [{ title: 'Run in Terminal' }] : []), { title: 'Copy' }],
    });
    if (copy?.title === 'Run in Terminal') {
      // A new terminal: ours has the gateway's variables (environmentVariableCollection).
      const terminal = vscode.window.createTerminal({ name: `Connect ${setup.label}` });
      terminal.show();
      terminal.sendText(snippet.text);
      return;
    }
    if (copy?.title !== 'Copy') return;
    const variable = `\${${loadGateway().TOKEN_VARIABLE}}`;
    await vscode.env.clipboard.writeText(snippet.copyWithToken ? snippet.text.split(variable).join(this.host.token) : snippet.text);
  }
}

/**
 * VS Code reads `<folder>/.mcp.json` for its own agent in 1.139 (checked in its workbench
 * source: the "workspaceDotMcp" collection); 1.103 does not. Versions between are taken to.
 */
export function readsDotMcpJson(version: string): boolean {
  return vsCodeAtLeast(version, 1, 104);
}

/** VS Code 1.140's MCP: Add Server writes `.mcp.json` and calls `.vscode/mcp.json` deprecated: from then on it is VS Code's own file. */
export function writesDotMcpJson(version: string): boolean {
  return vsCodeAtLeast(version, 1, 140);
}

async function writeChange(folder: vscode.WorkspaceFolder, change: FileChange): Promise<void> {
  const uri = vscode.Uri.joinPath(folder.uri, ...change.path.split('/'));
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(change.content));
}
