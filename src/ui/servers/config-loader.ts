/**
 * The room `src/ui/servers/`: the configured servers' life in the window: this file (their
 * configuration, read and watched), `logs` (one output channel per server), `live-tasks`
 * (every server's running MCP tasks, for the views), `task-references` (2026-07-28 tasks kept
 * across a reload) and `lost-tasks` (the 2025-era tasks a reload lost, named once after it).
 *
 * Feeds the server manager: every workspace folder's `.vscode/mcp.json` and the user
 * setting, reloaded when they change. File problems become diagnostics on the file.
 */
import * as vscode from 'vscode';
import { type ConfigSource, parseMcpJson, type ParsedConfig, parseSettingsServers } from '../../mcp/config/config';
import type { LoadedSource, ServerManager } from '../../mcp/servers/manager';
import { affects, userServers } from '../settings';
import { errorMessage } from '../../base/error-message';

const EMPTY: ParsedConfig = { servers: [], inputs: [], problems: [] };

export function mcpJsonUri(folder: vscode.WorkspaceFolder): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
}

export class ConfigLoader implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly watchers = new Map<string, vscode.FileSystemWatcher>();

  constructor(
    private readonly manager: ServerManager,
    private readonly diagnostics: vscode.DiagnosticCollection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        void this.load([...e.added.map((f) => this.folderSource(f))]);
        void this.manager.update(e.removed.map((f) => ({ source: this.folderSource(f), parsed: EMPTY })));
        e.removed.forEach((f) => {
          this.watchers.get(f.uri.toString())?.dispose();
          this.watchers.delete(f.uri.toString());
          this.diagnostics.delete(mcpJsonUri(f));
        });
        e.added.forEach((f) => this.watch(f));
        this.manager.rootsChanged();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'servers')) void this.load([{ kind: 'user' }]);
      }),
    );
  }

  private folderSource(folder: vscode.WorkspaceFolder): ConfigSource {
    return { kind: 'workspace', file: mcpJsonUri(folder).fsPath, folder: folder.uri.fsPath };
  }

  /**
   * Loads everything and starts watching the files; resolves once the servers to start have
   * started, `onKnown` as soon as they are all known.
   */
  async loadAll(onKnown?: () => void): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    folders.forEach((f) => this.watch(f));
    await this.load([...folders.map((f) => this.folderSource(f)), { kind: 'user' }], onKnown);
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    if (this.watchers.has(folder.uri.toString())) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.vscode/mcp.json'));
    const reload = (): void => void this.load([this.folderSource(folder)]);
    watcher.onDidCreate(reload);
    watcher.onDidChange(reload);
    watcher.onDidDelete(reload);
    this.watchers.set(folder.uri.toString(), watcher);
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
    const loaded: LoadedSource[] = [];
    for (const source of sources) {
      if (source.kind === 'user') {
        const parsed = parseSettingsServers(userServers());
        parsed.problems.forEach((p) => this.log.warn(`elicitationHost.servers: ${p.message}`));
        loaded.push({ source, parsed });
        continue;
      }
      const uri = vscode.Uri.file(source.file);
      let text: string | undefined;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        text = undefined; // no mcp.json in this folder
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
      loaded.push({ source, parsed });
    }
    try {
      await this.manager.update(loaded, onKnown);
    } catch (error) {
      this.log.error(`could not apply the server configuration: ${errorMessage(error)}`);
    }
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
