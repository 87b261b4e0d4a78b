/**
 * Serves our servers to VS Code's own agent: an MCP server definition provider listing,
 * for each server marked Serve to VS Code's Agent, its gateway endpoint with the token in
 * a header. VS Code's client then calls the tools through us and their questions are
 * asked in our prompts. The label is the server's configured name, which VS Code uses in
 * the tool names it gives the model.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../mcp/config';
import type { GatewayHost } from './gateway-host';
import type { ServeChoices } from './serve-choices';

export const PROVIDER_ID = 'elicitationHost.gateway';

export class AgentServerProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly host: GatewayHost,
    private readonly choices: ServeChoices,
    private readonly definitionOf: (id: string) => ServerDefinition | undefined,
  ) {
    this.subscriptions = [host.onDidChange(() => this.changed.fire()), choices.onDidChange(() => this.changed.fire())];
  }

  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    const gateway = await this.host.start();
    return gateway
      .servers()
      .filter((served) => {
        const definition = this.definitionOf(served.id);
        return definition !== undefined && this.choices.served(definition);
      })
      .map((served) => new vscode.McpHttpServerDefinition(served.name, vscode.Uri.parse(served.url), { Authorization: `Bearer ${this.host.token}` }));
  }

  /** The token may have been rotated since the list was given: each start gets the current one. */
  resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): vscode.McpHttpServerDefinition {
    server.headers = { ...server.headers, Authorization: `Bearer ${this.host.token}` };
    return server;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
