/**
 * Activation: builds the objects, registers commands, views and settings. No logic here.
 */
import { appendFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { FormParams, UrlParams } from './elicitation/broker';
import type { ElicitResult } from './elicitation/model';
import { InputStore } from './elicitation/store';
import { ServerManager } from './mcp/manager';
import { createBroker } from './mcp/create-broker';
import { ConfigLoader } from './ui/config-loader';
import { benchmarkPlainWebview } from './ui/benchmark';
import { FormPanel } from './ui/form-panel';
import { InputResolver } from './ui/inputs';
import { ServerLogs } from './ui/logs';
import { NativePrompter } from './ui/native-prompter';
import { OPEN_PENDING_COMMAND, PendingStatusBar, PendingTreeProvider, pickPendingRequest, SHOW_PENDING_COMMAND } from './ui/pending';
import { VsCodePrompter } from './ui/prompter';
import { ServersTreeProvider, type ServersNode } from './ui/servers-view';
import { autoStart, connectionSettings, forceForm } from './ui/settings';
import { RESULT_SCHEME, ResultDocuments, ToolRunner } from './ui/tool-runner';
import { vsCodeUrlFlow } from './ui/url-flow';
import { reportRefusedLink, UrlPrompt } from './ui/url-prompt';
import { refusalReporter } from './ui/refusals';

/** What other extensions (and the end-to-end tests) get from `activate`. */
export interface ElicitationHostApi {
  /** Asks the person on behalf of the calling extension, through the same prompts servers get. */
  requestInput(params: FormParams | UrlParams, options: { requester: string; signal?: AbortSignal }): Promise<ElicitResult>;
  /** The configured servers and their state. */
  servers(): Array<{ name: string; state: string; tools: string[]; protocolVersion?: string; capabilities?: string[] }>;
  /** Calls a server's tool (starting the server if needed), answering its questions through the UI. */
  callTool(server: string, tool: string, args?: Record<string, unknown>): Promise<unknown>;
  readonly store: InputStore;
}

export async function activate(context: vscode.ExtensionContext): Promise<ElicitationHostApi> {
  const log = vscode.window.createOutputChannel('Elicitation Host', { log: true });
  const store = new InputStore();
  const native = new NativePrompter(store);
  const forms = new FormPanel(context.extensionUri, store, native, log);
  const prompter = new VsCodePrompter(native, new UrlPrompt(log), forms);
  const broker = createBroker({
    store,
    prompter,
    forceForm,
    onLinkRefused: (source, url, reason) => reportRefusedLink(log, source, url, reason),
  });
  const logs = new ServerLogs();
  const inputs = new InputResolver(context.secrets, context.globalState);
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0');
  const manager = new ServerManager({
    broker,
    settings: connectionSettings,
    roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })),
    clientInfo: { name: 'elicitation-host', version },
    urlFlow: vsCodeUrlFlow(log),
    onElicitationRefused: refusalReporter(log),
    logFor: (name) => logs.logFor(name),
    workspaceTrusted: () => vscode.workspace.isTrusted,
    autoStart,
    userHome: homedir(),
    env: process.env,
    firstWorkspaceFolder: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    resolveInput: inputs.resolve,
    readFile: async (path) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path))),
  });
  const diagnostics = vscode.languages.createDiagnosticCollection('mcp.json');
  const loader = new ConfigLoader(manager, diagnostics, log);
  const results = new ResultDocuments();
  const runner = new ToolRunner(manager, broker, results);
  const serversView = new ServersTreeProvider(manager);
  const pendingView = new PendingTreeProvider(store);

  const serverIdOf = (node: ServersNode | string | undefined): string | undefined =>
    typeof node === 'string' ? node : node && node.kind !== 'problems' ? node.entry.id : undefined;
  const report = (promise: Promise<unknown>): void => {
    promise.catch((error: unknown) => void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error)));
  };
  const openPending = (id: string | undefined): void => {
    if (id && !prompter.open(id)) void vscode.window.showInformationMessage('That question is no longer waiting.');
  };

  context.subscriptions.push(
    log,
    logs,
    forms,
    diagnostics,
    loader,
    serversView,
    pendingView,
    new PendingStatusBar(store),
    vscode.window.createTreeView('elicitationHost.servers', { treeDataProvider: serversView, showCollapseAll: true }),
    vscode.window.registerTreeDataProvider('elicitationHost.pending', pendingView),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    vscode.commands.registerCommand('elicitationHost.runTool', (node?: ServersNode) =>
      report(runner.run(serverIdOf(node), node?.kind === 'tool' ? node.tool.name : undefined)),
    ),
    vscode.commands.registerCommand('elicitationHost.startServer', (node?: ServersNode | string) => {
      const id = serverIdOf(node);
      if (id) report(manager.start(id));
    }),
    vscode.commands.registerCommand('elicitationHost.stopServer', (node?: ServersNode | string) => {
      const id = serverIdOf(node);
      if (id) report(manager.stop(id));
    }),
    vscode.commands.registerCommand('elicitationHost.restartServer', (node?: ServersNode | string) => {
      const id = serverIdOf(node);
      if (id) report(manager.restart(id));
    }),
    vscode.commands.registerCommand('elicitationHost.showServerOutput', (node?: ServersNode | string) => {
      const id = serverIdOf(node);
      const entry = id ? manager.find(id) : undefined;
      if (entry) logs.show(entry.definition.name);
      else log.show(true);
    }),
    vscode.commands.registerCommand('elicitationHost.refreshServers', () => report(loader.loadAll())),
    vscode.commands.registerCommand('elicitationHost.forgetInputs', () => report(inputs.forget())),
    vscode.commands.registerCommand('elicitationHost.manageTrust', () => vscode.commands.executeCommand('workbench.trust.manage')),
    vscode.commands.registerCommand(SHOW_PENDING_COMMAND, async () => {
      // The list needs the quick input: a prompt on screen steps aside and stays pending.
      const resume = native.pause();
      try {
        openPending(await pickPendingRequest(store));
      } finally {
        resume();
      }
    }),
    vscode.commands.registerCommand(OPEN_PENDING_COMMAND, (id?: string) => openPending(id)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => report(manager.trustChanged())),
    // The floors the benchmark compares our prompts with: VS Code's own quick pick and a
    // new webview with a plain form, each timed from the call.
    vscode.commands.registerCommand('elicitationHost.benchmark.plainQuickPick', () => {
      const logFile = process.env.ELICITATION_HOST_BENCH_LOG;
      if (logFile) appendFileSync(logFile, `${JSON.stringify({ event: 'plainQuickPick', at: Date.now() })}\n`);
      return vscode.window.showQuickPick(['Accept', 'Decline'], { title: 'Plain quick pick (benchmark)' });
    }),
    vscode.commands.registerCommand('elicitationHost.benchmark.plainWebview', () => benchmarkPlainWebview()),
    { dispose: () => void manager.stopAll() },
  );

  if (process.env.ELICITATION_HOST_BENCH_LOG) void vscode.commands.executeCommand('setContext', 'elicitationHost.benchmarking', true);
  await loader.loadAll();
  log.info(`Elicitation Host ${version} activated: ${manager.servers.length} server(s) configured${process.env.ELICITATION_HOST_BENCH_LOG ? '; benchmark timings on' : ''}`);

  return {
    store,
    requestInput: (params, options) =>
      broker.elicit(params, {
        source: { server: options.requester },
        signal: options.signal ?? new AbortController().signal,
        applyDefaults: connectionSettings().applyDefaults,
      }),
    servers: () =>
      manager.servers.map((e) => ({
        name: e.definition.name,
        state: e.blocked ? 'blocked' : (e.connection?.state ?? 'stopped'),
        tools: e.connection?.tools.map((t) => t.name) ?? [],
        ...(e.connection?.protocolVersion && { protocolVersion: e.connection.protocolVersion }),
        ...(e.connection?.serverCapabilities && { capabilities: Object.keys(e.connection.serverCapabilities) }),
      })),
    callTool: (server, tool, args = {}) => {
      const entry = manager.find(server);
      if (!entry) return Promise.reject(new Error(`no server "${server}" is configured`));
      return manager.callTool(entry.id, tool, args);
    },
  };
}

export function deactivate(): void {}
