/**
 * Serves our servers to VS Code's own agent: an MCP server definition provider listing,
 * for each server marked Serve to VS Code's Agent, its gateway endpoint with the token in
 * a header. VS Code's client then calls the tools through us and their questions are
 * asked in our prompts. The label is the server's configured name, which VS Code uses in
 * the tool names it gives the model.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { ServerDefinition } from '../../mcp/config/config';
import type { GatewayHost } from './gateway-host';
import type { ServeChoices } from './serve-choices';

export const PROVIDER_ID = 'elicitationHost.gateway';

export class AgentServerProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** What VS Code was last told: it hears of a change only when this differs (servers change state often). */
  private listed = '';

  constructor(
    private readonly host: GatewayHost,
    private readonly choices: ServeChoices,
    private readonly definitionOf: (id: string) => ServerDefinition | undefined,
    private readonly enabled: () => boolean,
  ) {
    const update = (): void => {
      if (this.key() !== this.listed) this.changed.fire();
    };
    this.subscriptions = [host.onDidChange(update), choices.onDidChange(update)];
  }

  private served(): Array<{ name: string; url: string }> {
    const gateway = this.host.running;
    if (!gateway || !this.enabled()) return [];
    return gateway.servers().filter((served) => {
      const definition = this.definitionOf(served.id);
      return definition !== undefined && this.choices.served(definition);
    });
  }

  private key(): string {
    // The token is in the key (rotating it must reach VS Code) but never kept in clear.
    return JSON.stringify([this.served().map((s) => [s.name, s.url]), createHash('sha256').update(this.host.token).digest('hex')]);
  }

  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    if (!this.enabled()) return [];
    this.host.stamp('providerList');
    await this.host.start();
    this.listed = this.key();
    return this.served().map((served) => new vscode.McpHttpServerDefinition(served.name, vscode.Uri.parse(served.url), { Authorization: `Bearer ${this.host.token}` }));
  }

  /** The token may have been rotated since the list was given: each start gets the current one. */
  resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): vscode.McpHttpServerDefinition {
    this.host.stamp('providerResolve');
    server.headers = { ...server.headers, Authorization: `Bearer ${this.host.token}` };
    // VS Code connects next: what its first requests need is readied while it does (after this returns).
    setImmediate(() => this.host.prepare(server.uri.path));
    return server;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
