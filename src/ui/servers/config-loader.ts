/**
 * The room `src/ui/servers/`: the configured servers' life in the window: this file (their
 * configuration, read and watched), `logs` (one output channel per server), `live-tasks`
 * (every server's running MCP tasks, for the views), `task-references` (2026-07-28 tasks kept
 * across a reload) and `lost-tasks` (the 2025-era tasks a reload lost, named once after it).
 *
 * Feeds the server manager from every place a person keeps MCP servers: each workspace
 * folder's `.vscode/mcp.json` (VS Code's format) and `.mcp.json` (the portable format Claude
 * Code, Copilot CLI and VS Code's agent host read), our user setting, and the person's own
 * `~/.copilot/mcp-config.json` (`$COPILOT_HOME/mcp-config.json` when that is set), reloaded
 * when they change. A server two of them define alike runs once (src/mcp/config/duplicates.ts).
 * A workspace's files start nothing until the workspace is trusted; the person's own run as
 * the setting does. File problems become diagnostics on the file.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ConfigSource, parseMcpJson, type ParsedConfig, parseSettingsServers, scopeOf } from '../../mcp/config/config';
import { type SourceConfig, withoutDuplicates } from '../../mcp/config/duplicates';
import type { ServerManager } from '../../mcp/servers/manager';
import { affects, userServers } from '../settings';
import { errorMessage } from '../../base/error-message';

const EMPTY: ParsedConfig = { servers: [], inputs: [], problems: [] };

export function mcpJsonUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
}

export function dotMcpJsonUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, '.mcp.json');
}

/** The person's Copilot configuration folder, as Copilot CLI and VS Code find it. */
export function copilotHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.COPILOT_HOME || join(homedir(), '.copilot');
}

export class ConfigLoader implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watchers = new Map<string, vscode.FileSystemWatcher>();
  /** What every source said last, by its scope: a duplicate is judged across all of them. */
  private readonly latest = new Map<string, SourceConfig>();
  private readonly userFile: ConfigSource = { kind: 'user', file: join(copilotHome(), 'mcp-config.json'), format: 'portable' };

  constructor(
    private readonly manager: ServerManager,
    private readonly diagnostics: vscode.DiagnosticCollection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) {
          this.watchers.get(f.uri.toString())?.dispose();
          this.watchers.delete(f.uri.toString());
          for (const source of this.folderSources(f)) {
            // Kept, empty: the manager then stops what it defined.
            this.latest.set(scopeOf(source), { source, parsed: EMPTY });
            this.diagnostics.delete(vscode.Uri.file(source.file!));
          }
        }
        e.added.forEach((f) => this.watch(f));
        void this.load(e.added.flatMap((f) => this.folderSources(f)));
        this.manager.rootsChanged();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'servers')) void this.load([{ kind: 'user' }]);
      }),
    );
  }

  private folderSources(folder: vscode.WorkspaceFolder): ConfigSource[] {
    return [
      { kind: 'workspace', file: mcpJsonUri(folder).fsPath, folder: folder.uri.fsPath },
      { kind: 'workspace', file: dotMcpJsonUri(folder).fsPath, folder: folder.uri.fsPath, format: 'portable' },
    ];
  }

  /**
   * Loads everything and starts watching the files; resolves once the servers to start have
   * started, `onKnown` as soon as they are all known.
   */
  async loadAll(onKnown?: () => void): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    folders.forEach((f) => this.watch(f));
    this.watchUserFile();
    await this.load([...folders.flatMap((f) => this.folderSources(f)), { kind: 'user' }, this.userFile], onKnown);
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    if (this.watchers.has(folder.uri.toString())) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '{.vscode/mcp.json,.mcp.json}'));
    const reload = (): void => void this.load(this.folderSources(folder));
    watcher.onDidCreate(reload);
    watcher.onDidChange(reload);
    watcher.onDidDelete(reload);
    this.watchers.set(folder.uri.toString(), watcher);
  }

  private watchUserFile(): void {
    if (this.watchers.has(this.userFile.file!)) return;
    const file = vscode.Uri.file(this.userFile.file!);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), 'mcp-config.json'));
    const reload = (): void => void this.load([this.userFile]);
    watcher.onDidCreate(reload);
    watcher.onDidChange(reload);
    watcher.onDidDelete(reload);
    this.watchers.set(this.userFile.file!, watcher);
  }

  private async load(sources: ConfigSource[], onKnown?: () => void): Promise<void> {
    try {
      await this.read(sources, onKnown);
    } finally {
      // Whatever failed on the way (it is logged), whoever waits for the servers to be known waits no longer.
      onKnown?.();
    }
  }

  private async read(sources: ConfigSource[], onKnown?: () => void): Promise<void> {
    for (const source of sources) {
      const parsed = source.file === undefined ? this.readSetting() : await this.readFile(source);
      this.latest.set(scopeOf(source), { source, parsed });
    }
    try {
      await this.manager.update(withoutDuplicates([...this.latest.values()]), onKnown);
    } catch (error) {
      this.log.error(`could not apply the server configuration: ${errorMessage(error)}`);
    }
  }

  private readSetting(): ParsedConfig {
    const parsed = parseSettingsServers(userServers());
    parsed.problems.forEach((p) => this.log.warn(`elicitationHost.servers: ${p.message}`));
    return parsed;
  }

  private async readFile(source: ConfigSource): Promise<ParsedConfig> {
    const uri = vscode.Uri.file(source.file!);
    let text: string | undefined;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      text = undefined; // no such file here
    }
    const parsed = text === undefined ? EMPTY : parseMcpJson(text, source);
    this.diagnostics.set(
      uri,
      parsed.problems.map((p) => {
        const start = new vscode.Position(p.line, p.column);
        const end = text === undefined ? start : positionAt(text, p.offset + Math.max(p.length, 1));
        const diagnostic = new vscode.Diagnostic(new vscode.Range(start, end), p.message, vscode.DiagnosticSeverity.Error);
        diagnostic.source = 'Elicitation Host';
        return diagnostic;
      }),
    );
    if (parsed.problems.length > 0) this.log.warn(`${source.file}: ${parsed.problems.length} problem(s); its valid servers still run`);
    return parsed;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.watchers.forEach((w) => w.dispose());
  }
}

function positionAt(text: string, offset: number): vscode.Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return new vscode.Position(line, offset - (before.lastIndexOf('\n') + 1));
}
