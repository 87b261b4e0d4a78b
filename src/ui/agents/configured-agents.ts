/**
 * The agents configured for this window (`elicitationHost.agents`), read again when the setting
 * changes or the workspace is trusted. Until trust VS Code hides a restricted setting's
 * workspace value, so the workspace's settings files are read (and watched) as data: their
 * agents are listed, waiting for trust, and never started from here (acp-agents.ts checks).
 */
import * as vscode from 'vscode';
import { isRecord } from '../../base/is-record';
import { Listeners } from '../../base/listeners';
import { agentsInSettingsText, type ConfiguredAgent, readAgents, SETTINGS_FILE_LIMIT } from './agent-definitions';

export const AGENTS_SETTING = 'elicitationHost.agents';

export class ConfiguredAgents implements vscode.Disposable {
  readonly onDidChange = new Listeners<void>();
  private configured: readonly ConfiguredAgent[] = [];
  /** The workspace's `elicitationHost.agents` as its settings files hold it, read as data while the workspace is untrusted. */
  private untrustedValue: unknown;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.read();
    void this.readUntrusted();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(AGENTS_SETTING)) {
          this.read();
          this.onDidChange.fire();
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.untrustedValue = undefined;
        this.read();
        this.onDidChange.fire();
      }),
    );
    // Until trust, VS Code tells no change of a restricted setting: the files are watched instead.
    if (!vscode.workspace.isTrusted) {
      for (const uri of this.settingsFiles().map((f) => f.uri)) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), uri.path.split('/').pop()!));
        const again = (): void => void this.readUntrusted();
        this.disposables.push(watcher, watcher.onDidChange(again), watcher.onDidCreate(again), watcher.onDidDelete(again));
      }
    }
  }

  get agents(): readonly ConfiguredAgent[] {
    return this.configured;
  }

  private read(): void {
    const inspected = vscode.workspace.getConfiguration().inspect<unknown>(AGENTS_SETTING);
    // A folder's settings count as the workspace's: both are the repository's choice. Until
    // trust VS Code hides a restricted setting's workspace value: the files' own is shown, waiting.
    const workspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? (vscode.workspace.isTrusted ? undefined : this.untrustedValue);
    const { agents, problems } = readAgents(inspected?.globalValue, workspace);
    for (const problem of problems) this.log.warn(problem);
    this.configured = agents;
  }

  /** The settings files of the workspace: its `.code-workspace` file's `settings`, then each folder's `.vscode/settings.json`. */
  private settingsFiles(): { readonly uri: vscode.Uri; readonly file: 'workspace' | 'folder' }[] {
    const workspaceFile = vscode.workspace.workspaceFile;
    return [
      ...(workspaceFile && workspaceFile.scheme !== 'untitled' ? [{ uri: workspaceFile, file: 'workspace' as const }] : []),
      ...(vscode.workspace.workspaceFolders ?? []).map((folder) => ({ uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'), file: 'folder' as const })),
    ];
  }

  /** Reads the workspace's agents out of its settings files, as data, while it is untrusted (a later file's agent wins, as a folder's setting does). */
  private async readUntrusted(): Promise<void> {
    if (vscode.workspace.isTrusted) return;
    let merged: Record<string, unknown> | undefined;
    for (const { uri, file } of this.settingsFiles()) {
      let text: string;
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.size > SETTINGS_FILE_LIMIT) {
          this.log.warn(`${uri.fsPath}: over ${SETTINGS_FILE_LIMIT.toLocaleString('en-US')} bytes, not read for its agents.`);
          continue;
        }
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue; // No such file: nothing defined there.
      }
      const value = agentsInSettingsText(text, file);
      if (isRecord(value)) merged = { ...merged, ...value };
      else if (value !== undefined) this.log.warn(`${AGENTS_SETTING} in ${uri.fsPath} must be an object of agents by name.`);
    }
    if (vscode.workspace.isTrusted) return;
    this.untrustedValue = merged;
    this.read();
    this.onDidChange.fire();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
