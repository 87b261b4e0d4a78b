/**
 * The extension proper, loaded just after the activate call (src/extension.ts, which has
 * registered stand-ins for what VS Code shows): builds the objects, hands the views and the
 * MCP provider their real data, registers the commands. No logic here. A build that measures
 * it hooks in through `MainHooks` (the benchmark build's entry, bench/extension-main.ts):
 * the extension imports nothing of its bench.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createApi, type ElicitationHostApi } from './api';
import { InputStore } from './elicitation/store';
import { createBroker } from './mcp/create-broker';
import type { Timings } from './mcp/ports';
import { type ServerEntry, ServerManager } from './mcp/servers/manager';
import { ToolConsents } from './mcp/tool-consent';
import { AgentServerProvider } from './ui/gateway/agent-provider';
import { ConfigLoader } from './ui/servers/config-loader';
import { AgentConnector, SETUP_SCHEME, SetupDocuments } from './ui/gateway/connect-agent';
import { GatewayHost } from './ui/gateway/gateway-host';
import { GatewayToken } from './ui/gateway/gateway-token';
import { putCliOnPath } from './ui/gateway/cli-on-path';
import { FormPanel } from './ui/form/form-panel';
import { HISTORY_SCHEME, HistoryView, persistedHistory } from './ui/views/history-view';
import { InputResolver } from './ui/sign-in/inputs';
import { ExtensionConsentDialogs, installedExtension } from './ui/prompts/extension-consent';
import { ServerLogs } from './ui/servers/logs';
import { LiveTasks } from './ui/servers/live-tasks';
import { LegacyTaskNotes, lostTasksNotice } from './ui/servers/lost-tasks';
import { WorkspaceTaskReferences } from './ui/servers/task-references';
import { CANCEL_TASK_COMMAND, cancelTask, type TaskNode } from './ui/views/task-items';
import { showSettledTask } from './ui/run-tool/task-results';
import { MutedServers } from './ui/prompts/mutes';
import { NativePrompter } from './ui/prompts/native-prompter';
import { WHOLE_SCHEME, WholeInputDocuments } from './ui/prompts/whole-input';
import { DIFF_SCHEME, ProposedDiffs } from './ui/prompts/view-diff';
import { reportFailure as report, showInfo, showWarning } from './ui/notify';
import { OwnQuickInput } from './ui/quick-input/own-quick-input';
import { OPEN_PENDING_COMMAND, openPendingRequest, PendingStatusBar, PendingTreeProvider, pickPendingRequest, SHOW_PENDING_COMMAND } from './ui/views/pending';
import { showPendingBadge } from './ui/views/pending-badge';
import { VsCodePrompter } from './ui/prompts/prompter';
import { refusalReporter } from './ui/prompts/refusals';
import { registerServerCommand, serverOf } from './ui/views/server-commands';
import { ServersTreeProvider, type ServersNode } from './ui/views/servers-view';
import { ServeChoices } from './ui/gateway/serve-choices';
import { SignIns } from './ui/sign-in/sign-in';
import { addAgent } from './ui/agents/add-agent';
import { AcpAgents } from './ui/agents/acp-agents';
import { AgentHostConnections } from './ui/agent-hosts/agent-host-connections';
import { registerAgentHostCommands } from './ui/agent-hosts/agent-host-commands';
import { OPEN_HOST_SESSION_COMMAND } from './ui/views/agent-host-items';
import { sharedServersOf } from './ui/agents/shared-servers';
import { AgentsTreeProvider, type AgentsNode, OPEN_SESSION_COMMAND, PAST_SESSIONS_COMMAND, REOPEN_SESSION_COMMAND } from './ui/views/agents-view';
import { openPastSession } from './ui/agents/past-session-pick';
import { autoStart, connectionSettings, forceForm, gatewayEnabled } from './ui/settings';
import { RESULT_SCHEME, ResultDocuments, ToolRunner } from './ui/run-tool/tool-runner';
import { TRY_SAMPLE_COMMAND, trySampleQuestion } from './ui/run-tool/sample-question';
import { openGetStarted } from './ui/get-started';
import { vsCodeUrlFlow } from './ui/links/url-flow';
import { reportRefusedLink } from './ui/links/url-prompt';

import type { StandIns } from './stand-ins';
import { errorMessage } from './base/error-message';

/** What a build that measures the extension proper puts into it: the benchmark build's (bench/extension-hooks.ts); the shipped build has none. */
export interface MainHooks {
  /** Records one timing, stamped with when it was logged. */
  readonly record: Timings;
  /** The extension proper's activation is done up to its first wait (what follows waits for the servers to be read). */
  readonly activated: () => void;
  /** Sees each question arrive in the extension host. */
  readonly watch: (store: InputStore) => void;
  /** Sees the agents' sessions (the session bench times their streaming). */
  readonly agents?: (agents: AcpAgents) => void;
}

export async function activateMain(context: vscode.ExtensionContext, standIns: StandIns, bench?: MainHooks): Promise<ElicitationHostApi> {
  const log = vscode.window.createOutputChannel('Elicitation Host', { log: true });
  const store = new InputStore();
  bench?.watch(store);
  const mutes = new MutedServers(log);
  const wholeInputs = new WholeInputDocuments();
  const proposedDiffs = new ProposedDiffs();
  const native = new NativePrompter(store, mutes, log, wholeInputs, proposedDiffs);
  const quickInput = new OwnQuickInput(() => native.pause());
  // The manager comes later (it needs the broker, which needs the panel): asked only once a form ends.
  const callsInFlight = { count: () => manager.callsInFlight, onChange: (listener: () => void) => manager.onCallsChanged.add(listener) };
  const forms = new FormPanel(context.extensionUri, store, native, log, callsInFlight, bench?.record);
  const prompter = new VsCodePrompter(native, forms);
  const broker = createBroker({
    store,
    prompter,
    forceForm,
    isMuted: (source) => mutes.declines(source),
    onLinkRefused: (source, url, reason) => reportRefusedLink(log, source, url, reason),
  });
  const logs = new ServerLogs();
  const inputs = new InputResolver(context.secrets, context.globalState, quickInput);
  const version = String((context.extension.packageJSON as { version?: string }).version ?? '0.0.0');
  const signIns = new SignIns(context.extension.id, context.secrets, context.globalState, log);
  // 2026-07-28 tasks outlive a reload: kept per workspace, and their servers start with the window to follow them again.
  const taskReferences = new WorkspaceTaskReferences(context.workspaceState, (error) => log.warn(`could not keep a task reference: ${String(error)}`));
  const manager = new ServerManager({
    broker,
    settings: connectionSettings,
    roots: () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })),
    clientInfo: { name: 'elicitation-host', version },
    urlFlow: vsCodeUrlFlow(log),
    onElicitationRefused: refusalReporter(log),
    logFor: (name) => logs.logFor(name),
    workspaceTrusted: () => vscode.workspace.isTrusted,
    autoStart: (name) => autoStart(name) || taskReferences.has(name),
    taskReferences,
    userHome: homedir(),
    env: process.env,
    firstWorkspaceFolder: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    resolveInput: inputs.resolve,
    readFile: async (path) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path))),
    // Servers are offered sampling, which goes to the calling agent when it can sample.
    relaySampling: true,
    signIn: signIns.forServer,
    ...(bench && { timings: bench.record }),
  });
  const agentChoices = new ServeChoices(context.workspaceState);
  // Which extensions may call which servers' tools: per workspace, as the servers are.
  const consents = new ToolConsents(context.workspaceState, new ExtensionConsentDialogs());
  const { history, persistence } = persistedHistory(context.workspaceState);
  const stopFollowing = history.follow(store);
  const historyView = new HistoryView(history);
  const gateway = new GatewayHost({
    upstreams: {
      list: () => manager.servable.map((e) => manager.upstream(e.id)),
      onDidChange: (listener) => manager.onDidChange.add(listener),
    },
    token: new GatewayToken(context.secrets),
    broker,
    store,
    version,
    state: context.workspaceState,
    terminalEnv: context.environmentVariableCollection,
    log,
    onToolResult: (match, text) => history.attachResult(match, text),
    ...(bench && { timings: bench.record }),
  });
  const setupDocuments = new SetupDocuments();
  const connector = new AgentConnector(gateway, setupDocuments, quickInput);
  const diagnostics = vscode.languages.createDiagnosticCollection('mcp.json');
  const loader = new ConfigLoader(manager, diagnostics, log);
  const results = new ResultDocuments();
  const runner = new ToolRunner(
    manager,
    broker,
    results,
    quickInput,
    (match, text) => history.attachResult(match, text),
    (server, run) => signIns.interactively(server, run),
    bench?.record,
  );
  const agents = new AcpAgents({
    extensionUri: context.extensionUri,
    storageUri: context.globalStorageUri,
    broker,
    store,
    log,
    version,
    settings: () => {
      const { urlMode, applyDefaults, elicitationTimeoutMs } = connectionSettings();
      return { urlMode, applyDefaults, elicitationTimeoutMs };
    },
    shareServers: sharedServersOf(gateway, context.extensionPath),
    memory: context.workspaceState,
  });
  bench?.agents?.(agents);
  // The agent hosts this window is a client of (VS Code's own agents' questions): the same broker, store and prompts.
  const agentHosts = new AgentHostConnections({
    context,
    broker,
    store,
    log,
    version,
    applyDefaults: () => connectionSettings().applyDefaults,
    openRequest: (requestId) => prompter.open(requestId),
    ...(bench && { timings: bench.record }),
  });
  const agentsView = new AgentsTreeProvider(agents, agentHosts);
  const addAgentHere = (): Promise<string | undefined> => addAgent(quickInput, wholeInputs, (name) => agents.find(name) !== undefined, join(context.globalStorageUri.fsPath, 'acp-registry.json'));
  const pickAgent = async (node?: AgentsNode, title = 'New Agent Session'): Promise<string | undefined> => {
    if (node?.kind === 'agent') return node.entry.agent.definition.name;
    const names = agents.agents.map((a) => a.agent.definition.name);
    if (names.length === 0) return addAgentHere();
    if (names.length === 1) return names[0];
    return (await quickInput.pick(names.map((label) => ({ label })), { title, placeHolder: 'Which agent?' }))?.label;
  };
  const liveTasks = new LiveTasks(manager);
  // 2025-era tasks cannot outlive the window: the last one's losses are said now, this one's noted.
  const lostTasks = lostTasksNotice(context.workspaceState);
  if (lostTasks) void showWarning(lostTasks);
  const serversView = new ServersTreeProvider(manager, mutes, agentChoices, liveTasks);
  const pendingView = new PendingTreeProvider(store);
  const pendingTree = standIns.pendingView;

  const openPending = (id: string | undefined): void => openPendingRequest((requestId) => prompter.open(requestId), id);
  const onServer = (command: string, run: (id: string, name: string) => unknown) =>
    registerServerCommand(manager, command, (entry) => run(entry.id, entry.definition.name));

  const signOut = async (entry: ServerEntry): Promise<void> => {
    if (entry.definition.config.type === 'stdio') return;
    await signIns.signOut(entry.definition.name, entry.definition.config.url);
    await manager.stop(entry.id);
    void showInfo(`Signed out of ${entry.definition.name}: its tokens and registration are forgotten.`);
  };

  // The views and the provider VS Code already asks get their real data; the commands' stand-ins
  // give way to the real ones, in this same turn (src/ui/deferred.ts).
  standIns.servers.set(serversView);
  standIns.agents.set(agentsView);
  standIns.pending.set(pendingView);
  standIns.history.set(historyView);
  standIns.mcp.set(new AgentServerProvider(gateway, agentChoices, (id) => manager.find(id)?.definition, gatewayEnabled));
  standIns.commands.dispose();
  context.subscriptions.push(
    signIns,
    vscode.window.registerUriHandler(signIns),
    log,
    logs,
    forms,
    diagnostics,
    loader,
    liveTasks,
    new LegacyTaskNotes(context.workspaceState, liveTasks),
    { dispose: liveTasks.onSettled.add((settled) => showSettledTask(results, settled)) },
    serversView,
    pendingView,
    new PendingStatusBar(store),
    agents,
    agentHosts,
    agentsView,
    ...registerAgentHostCommands(quickInput, agentHosts, OPEN_HOST_SESSION_COMMAND),
    vscode.commands.registerCommand('elicitationHost.addAgent', () => report(addAgentHere())),
    vscode.commands.registerCommand('elicitationHost.newAgentSession', (node?: AgentsNode) =>
      report(
        (async () => {
          const name = await pickAgent(node);
          if (name) await agents.newSession(name);
        })(),
      ),
    ),
    vscode.commands.registerCommand(OPEN_SESSION_COMMAND, (name: string, sessionId: string) => agents.openSession(name, sessionId)),
    vscode.commands.registerCommand('elicitationHost.closeAgentSession', (node?: AgentsNode) => {
      if (node?.kind === 'session') agents.closeSession(node.agent, node.panel.session.id);
    }),
    vscode.commands.registerCommand(REOPEN_SESSION_COMMAND, (name: string, sessionId: string, title?: string) => report(agents.reopen(name, sessionId, title))),
    vscode.commands.registerCommand(PAST_SESSIONS_COMMAND, (node?: AgentsNode) =>
      report(
        (async () => {
          const name = node?.kind === 'note' ? node.agent : await pickAgent(node, 'Open Past Agent Session');
          if (name) await openPastSession(agents, quickInput, name);
        })(),
      ),
    ),
    vscode.commands.registerCommand('elicitationHost.stopAgent', (node?: AgentsNode) => {
      if (node?.kind === 'agent') report(agents.stop(node.entry.agent.definition.name));
    }),
    showPendingBadge(store, pendingTree),
    persistence,
    historyView,
    { dispose: stopFollowing },
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, historyView),
    vscode.commands.registerCommand('elicitationHost.clearHistory', () => history.clear()),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    vscode.workspace.registerTextDocumentContentProvider(WHOLE_SCHEME, wholeInputs),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, proposedDiffs),
    vscode.commands.registerCommand('elicitationHost.runTool', (node?: ServersNode) =>
      report(runner.run(serverOf(manager, node)?.id, node?.kind === 'tool' ? node.tool.name : undefined)),
    ),
    vscode.commands.registerCommand(CANCEL_TASK_COMMAND, (node?: TaskNode) => report(cancelTask(node, (task) => runner.taskCancelled(task)))),
    onServer('elicitationHost.startServer', (id) => report(manager.start(id))),
    onServer('elicitationHost.stopServer', (id) => report(manager.stop(id))),
    onServer('elicitationHost.restartServer', (id) => report(manager.restart(id))),
    onServer('elicitationHost.signIn', (id, name) => report(signIns.interactively(name, () => manager.restart(id)))),
    registerServerCommand(manager, 'elicitationHost.signOut', (entry) => report(signOut(entry))),
    onServer('elicitationHost.muteServer', (_id, name) => mutes.mute(name)),
    onServer('elicitationHost.unmuteServer', (_id, name) => mutes.unmute(name)),
    registerServerCommand(manager, 'elicitationHost.serveToAgent', (entry) => report(agentChoices.set(entry.definition, true))),
    registerServerCommand(manager, 'elicitationHost.stopServingToAgent', (entry) => report(agentChoices.set(entry.definition, false))),
    gateway,
    agentChoices,
    vscode.workspace.registerTextDocumentContentProvider(SETUP_SCHEME, setupDocuments),
    vscode.commands.registerCommand('elicitationHost.connectAgent', () => report(connector.run())),
    vscode.commands.registerCommand('elicitationHost.rotateGatewayToken', () => report(gateway.rotateToken())),
    vscode.commands.registerCommand('elicitationHost.showServerOutput', (node?: ServersNode | string) => {
      const entry = serverOf(manager, node);
      if (entry) logs.show(entry.definition.name);
      else log.show(true);
    }),
    vscode.commands.registerCommand('elicitationHost.refreshServers', () => report(loader.loadAll())),
    vscode.commands.registerCommand('elicitationHost.forgetInputs', () => report(inputs.forget([...signIns.forgettable(), ...consents.forgettable()]))),
    vscode.commands.registerCommand('elicitationHost.manageTrust', () => vscode.commands.executeCommand('workbench.trust.manage')),
    vscode.commands.registerCommand(SHOW_PENDING_COMMAND, async () => openPending(await pickPendingRequest(store, quickInput))),
    // The Get Started walkthrough: its sample, its own opener, and whether a server is configured (its first step's completion).
    vscode.commands.registerCommand(TRY_SAMPLE_COMMAND, (from?: unknown) => report(trySampleQuestion(broker, connectionSettings().applyDefaults, from))),
    vscode.commands.registerCommand('elicitationHost.getStarted', () => openGetStarted(`${context.extension.id}#getStarted`)),
    { dispose: manager.onDidChange.add(() => void vscode.commands.executeCommand('setContext', 'elicitationHost.hasServers', manager.servers.length > 0)) },
    vscode.commands.registerCommand(OPEN_PENDING_COMMAND, (id?: string) => openPending(id)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => report(manager.trustChanged())),
    { dispose: () => void manager.stopAll() },
  );
  standIns.commandsReady.set();
  // Agent hosts with a stored token connect now; activation does not wait for them.
  report(agentHosts.connectAll());

  // Activation ends once the servers are known, not started: a start may wait for a person's
  // input or a slow remote server, and whoever awaits our activation (an extension using the
  // API) should not wait for that.
  const known = new Promise<void>((resolve) => report(loader.loadAll(resolve)));
  bench?.activated();
  await known;
  if (gatewayEnabled()) {
    report(gateway.start());
    // `elicitation-host ask` and `acp-proxy` in terminals, reaching this window's gateway.
    try {
      putCliOnPath(context.environmentVariableCollection, join(context.globalStorageUri.fsPath, 'bin'), context.extensionPath);
    } catch (error) {
      log.warn(`elicitation-host is not on terminals' PATH: ${errorMessage(error)}`);
    }
  }
  log.info(`Elicitation Host ${version} activated: ${manager.servers.length} server(s) configured${bench ? '; benchmark timings on' : ''}`);
  return createApi({
    broker,
    store,
    manager,
    applyDefaults: () => connectionSettings().applyDefaults,
    installedExtension,
    consents,
  });
}
