/**
 * Activation's stand-ins (src/ui/deferred.ts) in a real extension host: what VS Code asks of a
 * command, a view or the MCP provider in the moment between the activate call and the
 * extension proper's load waits for the real part and gets its answer. The moment itself is
 * a few milliseconds in a window load, too short to hit from outside, so each stand-in is
 * made here with a real part given later, as src/extension.ts makes them.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { DeferredMcpProvider, DeferredTree, deferCommands, Later } from '../../../src/ui/deferred';

const never: vscode.CancellationToken = new vscode.CancellationTokenSource().token;

describe("activation's stand-ins, before the extension proper is loaded", () => {
  it('a command run early waits, then runs the real command of the same id with its arguments', async () => {
    const id = `elicitationHost.test.standIn.${Date.now()}`;
    const ready = new Later<void>();
    const standIn = deferCommands([id], ready.promise);
    // Called while only the stand-in exists: the real command is registered after this call.
    const result = vscode.commands.executeCommand<string>(id, 'a', 2);
    // The extension proper registers its commands: the stand-ins go first, in the same turn.
    await new Promise<void>((resolve) => setImmediate(resolve));
    standIn.dispose();
    const real = vscode.commands.registerCommand(id, (a: string, b: number) => `real ${a} ${b}`);
    ready.set();
    try {
      assert.equal(await result, 'real a 2');
      assert.equal(await vscode.commands.executeCommand<string>(id, 'b', 3), 'real b 3');
    } finally {
      real.dispose();
    }
  });

  it("a view asked early shows the real provider's children once it is there, and its changes", async () => {
    const tree = new DeferredTree<string>();
    const children = tree.getChildren();
    const changed = new vscode.EventEmitter<void>();
    const items = ['first'];
    tree.set({ getChildren: () => items, getTreeItem: (e) => new vscode.TreeItem(e), onDidChangeTreeData: changed.event });
    assert.deepEqual(await children, ['first']);
    assert.equal((tree.getTreeItem('first') as vscode.TreeItem).label, 'first');
    const forwarded = new Promise<void>((resolve) => tree.onDidChangeTreeData(() => resolve()));
    items.push('second');
    changed.fire();
    await forwarded;
    assert.deepEqual(await tree.getChildren(), ['first', 'second']);
    tree.dispose();
  });

  it("the MCP provider asked early lists and resolves the real provider's servers; a failed load reaches the caller", async () => {
    const provider = new DeferredMcpProvider<vscode.McpHttpServerDefinition>();
    const definition = new vscode.McpHttpServerDefinition('Elicitation Host', vscode.Uri.parse('http://127.0.0.1:1/mcp'));
    const listed = provider.provideMcpServerDefinitions(never);
    provider.set({ provideMcpServerDefinitions: () => [definition], resolveMcpServerDefinition: (d) => d });
    assert.deepEqual(await listed, [definition]);
    assert.equal(await provider.resolveMcpServerDefinition(definition, never), definition);
    provider.dispose();

    const failing = new DeferredTree<string>();
    const asked = failing.getChildren();
    failing.fail(new Error('dist/extension-main.js did not load'));
    await assert.rejects(asked, /did not load/);
    failing.dispose();
  });
});
