/**
 * Which servers our MCP server definition provider lists to VS Code's own agent ("Serve to
 * VS Code's Agent" in the Servers view). Default on for servers from the
 * `elicitationHost.servers` setting, which VS Code's client never reads; default off for
 * servers from `.vscode/mcp.json` and the portable files, which VS Code runs itself: listing them too
 * would show each tool twice. Terminal agents reach every server through the gateway
 * whatever this says. Kept per workspace.
 */
import * as vscode from 'vscode';
import { type ServerDefinition, scopeOf } from '../../mcp/config/config';

const KEY = 'serveToVsCodeAgent';

export class ServeChoices {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  private key(definition: ServerDefinition): string {
    return `${scopeOf(definition.source)}\u0000${definition.name}`;
  }

  /**
   * True when VS Code's client also reads this server's definition: a workspace's
   * `.vscode/mcp.json` or `.mcp.json`, or the person's `~/.copilot/mcp-config.json` (VS Code's
   * agent host reads the portable files itself).
   */
  static vsCodeAlsoRuns(definition: ServerDefinition): boolean {
    return definition.source.kind === 'workspace' || definition.source.format === 'portable';
  }

  served(definition: ServerDefinition): boolean {
    const choices = this.state.get<Record<string, boolean>>(KEY, {});
    return choices[this.key(definition)] ?? !ServeChoices.vsCodeAlsoRuns(definition);
  }

  async set(definition: ServerDefinition, served: boolean): Promise<void> {
    const choices = { ...this.state.get<Record<string, boolean>>(KEY, {}), [this.key(definition)]: served };
    await this.state.update(KEY, choices);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
