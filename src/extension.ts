/**
 * Activation, kept small (dist/extension.js): the activate call registers what VS Code shows
 * and calls (the contributed commands, the four views, the MCP server definition provider) as
 * stand-ins, then returns; the extension proper (dist/extension-main.js: servers, gateway,
 * agents, prompts) is loaded just after, in the next turn of the event loop, and the stand-ins
 * hand over to it. Whoever awaits our activation (an extension using the API) still gets the
 * API once the servers are known. What VS Code's activation time counts, and what it leaves
 * out, is in bench/README.md.
 */
import * as vscode from 'vscode';
import type { ElicitationHostApi } from './api';
import type { RequestState } from './elicitation/store';
import type { HistoryEntry } from './elicitation/history';
import type { StandIns } from './stand-ins';
import { DeferredMcpProvider, DeferredTree, deferCommands, Later } from './ui/deferred';
import type { AgentsNode } from './ui/views/agents-view';
import type { ServersNode } from './ui/views/servers-view';

export type { ElicitationHostApi } from './api';

/** As package.json names it (src/ui/gateway/agent-provider.ts serves it); its module is not loaded here. */
const PROVIDER_ID = 'elicitationHost.gateway';

export async function activate(context: vscode.ExtensionContext): Promise<ElicitationHostApi> {
  // The benchmark build stamps the parts (its hooks, bench/extension-hooks.ts, read them once the extension proper has run).
  const stamps = BENCHMARK ? benchmarkStamps() : undefined;
  if (stamps) stamps.activateStarted = performance.now();
  const standIns = registerStandIns(context);
  if (stamps) stamps.activateEnded = performance.now();
  // The activate call ends here; the extension proper loads in the next turn, once VS Code has had its call back.
  await new Promise<void>((resolve) => setImmediate(resolve));
  try {
    if (stamps) stamps.loadStarted = performance.now();
    const main = loadMain();
    if (stamps) stamps.loadEnded = performance.now();
    return await main.activateMain(context, standIns);
  } catch (error) {
    for (const standIn of [standIns.servers, standIns.agents, standIns.pending, standIns.history, standIns.mcp, standIns.commandsReady]) standIn.fail(error);
    throw error;
  }
}

export function deactivate(): void {}

function registerStandIns(context: vscode.ExtensionContext): StandIns {
  const servers = new DeferredTree<ServersNode>();
  const agents = new DeferredTree<AgentsNode>();
  const pending = new DeferredTree<RequestState>();
  const history = new DeferredTree<HistoryEntry>();
  const mcp = new DeferredMcpProvider<vscode.McpHttpServerDefinition>();
  const pendingView = vscode.window.createTreeView('elicitationHost.pending', { treeDataProvider: pending });
  const commandsReady = new Later<void>();
  // Every contributed command but the benchmark's (registered by the benchmark build's hooks, when it runs).
  const contributed = (context.extension.packageJSON as { contributes?: { commands?: Array<{ command: string }> } }).contributes?.commands ?? [];
  const commands = deferCommands(
    contributed.map((c) => c.command).filter((id) => !id.startsWith('elicitationHost.benchmark.')),
    commandsReady.promise,
  );
  context.subscriptions.push(
    servers,
    agents,
    pending,
    history,
    mcp,
    commands,
    pendingView,
    vscode.window.createTreeView('elicitationHost.servers', { treeDataProvider: servers, showCollapseAll: true }),
    vscode.window.createTreeView('elicitationHost.agents', { treeDataProvider: agents }),
    vscode.window.registerTreeDataProvider('elicitationHost.history', history),
    vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, mcp),
  );
  return { servers, agents, pending, pendingView, history, mcp, commands, commandsReady };
}

type MainModule = typeof import('./extension-main');

function loadMain(): MainModule {
  // A plain require: the build maps './extension-main' to dist/extension-main.js (scripts/build.mjs).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./extension-main') as MainModule;
}

/** The benchmark build's stamps of activation's parts, on a global the hooks read (bench/extension-hooks.ts). */
function benchmarkStamps(): Record<string, number> {
  const global = globalThis as { __elicitationHostActivation?: Record<string, number> };
  return (global.__elicitationHostActivation = {});
}
