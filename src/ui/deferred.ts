/**
 * Stand-ins that activation registers with VS Code before the rest of the extension is
 * loaded (src/extension.ts, then src/extension-main.ts just after the activate call): each
 * waits for the real part and then hands over to it, so nothing VS Code shows or calls is
 * missing in between. This module needs nothing but the API: it is in the small bundle.
 */
import * as vscode from 'vscode';

/** A value given later, awaited by whoever needs it meanwhile. */
export class Later<T> {
  readonly promise: Promise<T>;
  private settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => (this.settle = { resolve, reject }));
    // A failed load is reported by activation itself; the stand-ins' callers get the rejection.
    this.promise.catch(() => undefined);
  }

  set(value: T): void {
    this.settle.resolve(value);
  }

  fail(error: unknown): void {
    this.settle.reject(error);
  }
}

/**
 * A tree's data, asked for before the real provider exists: VS Code shows the view's progress
 * until it does, then gets the real children; the real provider's changes are passed on.
 */
export class DeferredTree<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly real = new Later<vscode.TreeDataProvider<T>>();
  private provider: vscode.TreeDataProvider<T> | undefined;
  private forwarding: vscode.Disposable | undefined;

  set(provider: vscode.TreeDataProvider<T>): void {
    this.provider = provider;
    this.forwarding = provider.onDidChangeTreeData?.((change) => this.changed.fire(change));
    this.real.set(provider);
  }

  fail(error: unknown): void {
    this.real.fail(error);
  }

  async getChildren(element?: T): Promise<T[]> {
    return (await (await this.real.promise).getChildren(element)) ?? [];
  }

  /** Only asked of elements the real provider gave, so it is there. */
  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.provider!.getTreeItem(element);
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}

/**
 * The MCP server definition provider VS Code lists our served servers from: its list waits
 * for the real provider; the real provider's changes are passed on.
 */
export class DeferredMcpProvider<D extends vscode.McpServerDefinition> implements vscode.McpServerDefinitionProvider<D>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly real = new Later<vscode.McpServerDefinitionProvider<D>>();
  private forwarding: vscode.Disposable | undefined;

  set(provider: vscode.McpServerDefinitionProvider<D>): void {
    this.forwarding = provider.onDidChangeMcpServerDefinitions?.(() => this.changed.fire());
    this.real.set(provider);
  }

  fail(error: unknown): void {
    this.real.fail(error);
  }

  async provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<D[]> {
    return (await (await this.real.promise).provideMcpServerDefinitions(token)) ?? [];
  }

  async resolveMcpServerDefinition(server: D, token: vscode.CancellationToken): Promise<D | undefined> {
    const real = await this.real.promise;
    return real.resolveMcpServerDefinition ? ((await real.resolveMcpServerDefinition(server, token)) ?? undefined) : server;
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}

/**
 * The contributed commands, each run once the real ones are registered (`ready`): the
 * stand-ins are disposed just before that, in the same turn, so a command is never missing.
 */
export function deferCommands(ids: readonly string[], ready: Promise<unknown>): vscode.Disposable {
  return vscode.Disposable.from(
    ...ids.map((id) => vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      await ready;
      return vscode.commands.executeCommand(id, ...args);
    })),
  );
}
