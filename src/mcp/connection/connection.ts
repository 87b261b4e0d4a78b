/**
 * The room `src/mcp/connection/`: one server connection and its parts (below). It uses the
 * layer's shared vocabulary at the top of `src/mcp` (ports, errors, tool info), the
 * configuration and sign-in, never the manager above it (`src/mcp/servers/`).
 *
 * One MCP server connection's lifecycle: start (an SDK 2.x `Client`, version negotiation
 * `auto`), stop, reconnect (HTTP), liveness, its lists, and the calls made through it. The
 * jobs it coordinates live beside it: `transports` (reaching the server), `wire-tap`
 * (traffic, raw results), `process-watch` (stderr, exit), `rounds` (input-required and
 * -32042), `elicit-bridge` and `server-requests` (questions to the person),
 * `capabilities`, `redaction`, `reconnect` (when to try again), `watchdog` (a quiet call's
 * timeout), `calls` (each call), and MCP Tasks in a room of their own, `tasks/`, which the
 * connection and its calls enter through `tasks/tasks`.
 *
 * Every start and every stop begins a new generation: whatever an older one was awaiting
 * (a handshake, a tool list, a dead process's exit, a reconnection timer) finds the
 * generation moved on when it resumes, and ends without touching the state; a client an
 * outdated start yields is closed.
 *
 * About 510 lines, past the usual 400: the state machine (start, stop, close, loss,
 * reconnection) and its generation checks are one job, and read best in one place; each
 * call lives in `calls`, each task in `tasks/`.
 */
import type {
  CallToolResult,
  Client,
  ClientCapabilities,
  GetPromptResult,
  JSONRPCRequest,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Tool,
} from '@modelcontextprotocol/client';
import { type CallMethod, runCall, type TrackedCall } from './calls';
import { declaredCapabilities } from './capabilities';
import type { ServerDefinition } from '../config/config';
import { ElicitBridge, sourceOf } from './elicit-bridge';
import {
  abortMessage,
  CallError,
  describeLoss,
  isConnectionClosed,
  networkCodeOf,
  requiredLinksOf,
  RpcCode,
  RpcError,
  rpcCodeOf,
} from '../errors';
import { errorMessage } from '../../base/error-message';
import { Listeners } from '../../base/listeners';
import type { CallOptions, ConnectionDeps, ListKind, ServerLog } from '../ports';
import { type CrashInfo, describeCrash } from './process-watch';
import { ReconnectTimer } from './reconnect';
import { Redactor } from './redaction';
import { loadSdk, type Sdk } from '../sdk/sdk-loader';
import { ServerRequests } from './server-requests';
import { type ServerSignIn, withSignIn } from '../sign-in/sign-in';
import { TaskList, taskBounds, TaskSupport } from './tasks/tasks';
import { toToolInfo, type ToolInfo } from '../tool-info';
import { connect, type Connected, isHttp, StdioStartError, type TransportKind } from './transports';

/** How long a closed stdio server's exit (and its last stderr lines) is awaited before the person is told. */
const EXIT_WAIT_MS = 1000;
const PING_TIMEOUT_MS = 3000;

export type ServerState = 'stopped' | 'starting' | 'running' | 'error';

export class ServerConnection {
  readonly onDidChange = new Listeners<ServerConnection>();
  /** A list of the server's changed: it said so, or it (re)started with a new one. */
  readonly onListChanged = new Listeners<ListKind>();
  /** A call of ours started or ended (see `pending.calls` for how many run). */
  readonly onCallsChanged = new Listeners<void>();
  /** The tasks of ours this server runs (MCP Tasks): live, with Cancel; resumed ones' ends. */
  readonly tasks = new TaskList();
  private taskSupport: TaskSupport | undefined;
  private ranBefore = false;

  private live: Connected | undefined;
  private sdk: Sdk | undefined;
  private generation = 0;
  private startAbort: AbortController | undefined;
  private starting: Promise<void> | undefined;
  private readonly reconnect: ReconnectTimer;
  private checking = false;
  private declared: ClientCapabilities = {};
  private readonly inFlight = new Set<TrackedCall>();
  private readonly redactor: Redactor;
  private readonly log: ServerLog;
  private readonly bridge: ElicitBridge;
  private readonly requests: ServerRequests;

  state: ServerState = 'stopped';
  /** Why the server is in `error`, or what `starting` is waiting for. */
  detail: string | undefined;
  crash: CrashInfo | undefined;
  protocolVersion: string | undefined;
  era: 'legacy' | 'modern' | undefined;
  transportKind: TransportKind | undefined;
  serverInfo: { name: string; version: string } | undefined;
  /** What the server declared it offers (tools, prompts, resources...), as negotiated. */
  serverCapabilities: Readonly<Record<string, unknown>> | undefined;
  tools: readonly ToolInfo[] = [];
  /** The same tools as the server sent them (schemas, annotations, `_meta` untouched): what the gateway forwards. */
  rawTools: readonly Tool[] = [];

  /** An HTTP server's sign-in (OAuth), kept across reconnections. */
  readonly signIn: ServerSignIn | undefined;

  /** `definition` arrives resolved, so it may hold secrets: never show it. */
  constructor(
    readonly definition: ServerDefinition,
    private readonly deps: ConnectionDeps,
  ) {
    this.redactor = new Redactor(deps.secrets);
    this.signIn = isHttp(definition.config) ? deps.signIn?.(definition) : undefined;
    this.reconnect = new ReconnectTimer(deps.reconnectDelaysMs);
    this.log = this.redactor.log(deps.log);
    const inFlight = (): TrackedCall[] => [...this.inFlight];
    this.bridge = new ElicitBridge({
      server: this.name,
      broker: deps.broker,
      settings: deps.settings,
      urlFlow: deps.urlFlow,
      log: this.log,
      protocolVersion: () => this.protocolVersion,
      inFlight,
    });
    this.requests = new ServerRequests({
      server: this.name,
      bridge: this.bridge,
      log: this.log,
      inFlight,
      relaySampling: deps.relaySampling === true,
      ...(deps.onElicitationRefused && { onElicitationRefused: deps.onElicitationRefused }),
    });
  }

  get name(): string {
    return this.definition.name;
  }

  private setState(state: ServerState, detail?: string): void {
    this.state = state;
    this.detail = detail === undefined ? undefined : this.redactor.text(detail);
    this.onDidChange.fire(this);
  }

  /**
   * Starts the server; rejects with a CallError ready to show (also when `stop()` ends the
   * start). Callers while it starts share that start and its outcome.
   */
  start(): Promise<void> {
    if (this.state === 'running') return Promise.resolve();
    if (this.starting) return this.starting;
    const started = this.startOnce().finally(() => {
      if (this.starting === started) this.starting = undefined;
    });
    this.starting = started;
    return started;
  }

  private async startOnce(): Promise<void> {
    const generation = ++this.generation;
    this.reconnect.clear();
    this.crash = undefined;
    const abort = new AbortController();
    this.startAbort = abort;
    this.setState('starting');
    const stoppedWhileStarting = (): CallError => new CallError(`${this.name} was stopped before it finished starting`);
    try {
      const sdk = (this.sdk = await loadSdk());
      if (generation !== this.generation) throw stoppedWhileStarting();
      const settings = this.deps.settings();
      this.declared = declaredCapabilities(settings, this.deps.relaySampling === true);
      const live = await connect({
        sdk,
        definition: this.definition,
        newClient: () => this.createClient(sdk, settings),
        attach: (client) => this.watchClient(client),
        log: this.log,
        redact: (text) => this.redactor.text(text),
        signal: abort.signal,
        ...(this.signIn && { signIn: this.signIn }),
      });
      if (generation !== this.generation) {
        await this.close(live);
        throw stoppedWhileStarting();
      }
      this.live = live;
      const { client } = live;
      this.transportKind = live.kind;
      this.protocolVersion = client.getNegotiatedProtocolVersion();
      this.era = client.getProtocolEra();
      const version = client.getServerVersion();
      this.serverInfo = version && { name: version.name, version: version.version };
      this.serverCapabilities = client.getServerCapabilities() as Record<string, unknown> | undefined;
      this.taskSupport = await this.createTaskSupport(sdk, live);
      if (generation !== this.generation) throw stoppedWhileStarting();
      this.log.info(`connected over ${live.kind}, protocol ${this.protocolVersion} (${this.era} era), server ${version?.name ?? '?'} ${version?.version ?? ''}`);
      await this.refreshTools();
      if (generation !== this.generation) throw stoppedWhileStarting();
      this.reconnect.succeeded();
      this.setState('running');
      this.taskSupport?.resumeKept();
      // A restarted server may list other things; its first start is what listed them at all.
      if (this.ranBefore) for (const kind of ['tools', 'resources', 'prompts'] as const) this.onListChanged.fire(kind);
      this.ranBefore = true;
    } catch (error) {
      if (generation !== this.generation) throw stoppedWhileStarting();
      this.live = undefined;
      if (error instanceof StdioStartError) {
        // The exit code and last stderr lines land just after the close that failed the handshake.
        await error.process.settled(EXIT_WAIT_MS);
        if (generation !== this.generation) throw stoppedWhileStarting();
        this.crash = error.process.ended;
      }
      const message = this.redactor.text(this.crash ? describeCrash(this.crash) : errorMessage(error instanceof StdioStartError ? error.cause : error));
      this.log.error(`could not start: ${message}`);
      this.setState('error', message);
      // A server that waits for a sign-in is not tried again until the person signs in.
      if (isHttp(this.definition.config) && !this.signIn?.required) this.scheduleReconnect();
      throw new CallError(message);
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
    }
  }

  /** Stops the server: ends a start in progress, every call and question, any reconnection. */
  async stop(): Promise<void> {
    this.generation++;
    this.startAbort?.abort(new Error(`${this.name} was stopped`));
    this.reconnect.clear();
    const live = this.live;
    this.live = undefined;
    for (const call of this.inFlight) call.abort.abort(new Error(`${this.name} was stopped`));
    this.dropTasks(`${this.name} was stopped`);
    this.bridge.clear();
    this.tools = [];
    this.rawTools = [];
    if (live) await this.close(live);
    this.setState('stopped');
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Tells the server the workspace folders changed. */
  rootsChanged(): void {
    if (this.state === 'running' && this.era === 'legacy') {
      this.live?.client.sendRootsListChanged().catch((e: unknown) => this.log.warn(`roots/list_changed failed: ${errorMessage(e)}`));
    }
  }

  async refreshTools(): Promise<readonly ToolInfo[]> {
    const live = this.requireLive();
    const { tools } = await this.authorized(() => live.client.listTools(undefined, { cacheMode: 'refresh' })).catch(async (error: unknown) => {
      throw await this.failure(error, undefined, live);
    });
    if (this.live !== live) return this.tools;
    this.rawTools = tools;
    this.tools = tools.map(toToolInfo);
    this.onDidChange.fire(this);
    return this.tools;
  }

  /** Calls a tool, answering every question it asks along the way. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    return (await this.call('tools/call', { name, arguments: args }, name, options)) as CallToolResult;
  }

  /** Reads a resource, through the same rounds as a tool call. */
  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return (await this.call('resources/read', { uri }, uri, options)) as ReadResourceResult;
  }

  /** Gets a prompt, through the same rounds as a tool call. */
  async getPrompt(name: string, args: Record<string, string> | undefined, options: CallOptions = {}): Promise<GetPromptResult> {
    return (await this.call('prompts/get', { name, ...(args && { arguments: args }) }, name, options)) as GetPromptResult;
  }

  /** One page of resources (all of them, when no cursor is given). */
  listResources(cursor?: string): Promise<ListResourcesResult> {
    return this.list((client) => client.listResources(cursor === undefined ? undefined : { cursor }, { cacheMode: 'bypass' }));
  }

  listResourceTemplates(cursor?: string): Promise<ListResourceTemplatesResult> {
    return this.list((client) => client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, { cacheMode: 'bypass' }));
  }

  listPrompts(cursor?: string): Promise<ListPromptsResult> {
    return this.list((client) => client.listPrompts(cursor === undefined ? undefined : { cursor }, { cacheMode: 'bypass' }));
  }

  /** Calls in flight and what the wire tap holds for them (for tests: both drain when calls end). */
  get pending(): { readonly calls: number; readonly tapped: number } {
    return { calls: this.inFlight.size, tapped: this.live?.tap.held ?? 0 };
  }

  private async list<T>(request: (client: Client) => Promise<T>): Promise<T> {
    const live = this.requireLive();
    return this.authorized(() => request(live.client)).catch(async (error: unknown) => {
      throw await this.failure(error, undefined, live);
    });
  }

  /** A request that may need a sign-in (or more scope) first: signed in, it runs again. */
  private authorized<T>(operation: () => Promise<T>, signal = this.startAbort?.signal ?? new AbortController().signal): Promise<T> {
    return withSignIn(this.signIn, this.sdk!, signal, operation);
  }

  private createClient(sdk: Sdk, settings: ReturnType<ConnectionDeps['settings']>): Client {
    const onChanged = (kind: ListKind) => ({ autoRefresh: false, debounceMs: 0, onChanged: () => this.serverListChanged(client, kind) });
    const client: Client = new sdk.Client(this.deps.clientInfo, {
      capabilities: this.declared,
      versionNegotiation: { mode: settings.negotiation ?? 'auto' },
      // Rounds are ours to drive: the SDK's driver would strip the schemas we must see.
      inputRequired: { autoFulfill: false },
      // Both eras: 2025 notifications, and a 2026-07-28 `subscriptions/listen` the SDK opens.
      listChanged: { tools: onChanged('tools'), resources: onChanged('resources'), prompts: onChanged('prompts') },
    });
    // Raw, before the SDK's own handlers could strip `pattern` and option descriptions or answer nested schemas itself.
    client.fallbackRequestHandler = async (request: JSONRPCRequest, ctx) => {
      if (request.method === 'elicitation/create') this.deps.timings?.({ event: 'mcpElicitationReceived', at: Date.now() });
      // MCP Tasks first: a task-backed question, a request about one, a question naming a task of ours.
      const tasks = this.taskSupport?.client === client ? this.taskSupport : undefined;
      const served = await tasks?.serve(request.method, request.params, ctx);
      if (served !== undefined) return served;
      if (request.method === 'elicitation/create') return this.requests.elicit(request.params, ctx.mcpReq.signal);
      if (request.method === 'sampling/createMessage') return this.requests.sample(request.params, ctx.mcpReq.signal);
      throw new RpcError(RpcCode.methodNotFound, `Method not found: ${request.method}`);
    };
    client.fallbackNotificationHandler = async (notification) => {
      if (this.taskSupport?.client === client) this.taskSupport.notified(notification.method, notification.params);
    };
    client.setRequestHandler('roots/list', () => ({ roots: this.deps.roots().map((r) => ({ ...r })) }));
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => this.bridge.onCompletion(notification.params.elicitationId));
    return client;
  }

  private watchClient(client: Client): void {
    client.onclose = () => this.onClosed(client);
    client.onerror = (error) => {
      this.log.warn(`transport error: ${error.message}`);
      // An HTTP transport reports a vanished server as errors (on its event stream), never as a
      // close, and mostly without a code: whatever the error, a ping tells whether it is there.
      if (isHttp(this.definition.config)) this.checkAlive(client);
    };
  }

  private serverListChanged(client: Client, kind: ListKind): void {
    const live = this.live;
    if (live?.client !== client) return;
    if (kind !== 'tools') return this.onListChanged.fire(kind);
    this.refreshTools().then(
      () => this.onListChanged.fire('tools'),
      (e: unknown) => this.log.warn(`could not refresh tools: ${errorMessage(e)}`),
    );
  }

  private createTaskSupport(sdk: Sdk, live: Connected): Promise<TaskSupport> {
    return TaskSupport.create({
      definition: this.definition,
      sdk,
      live,
      era: this.era,
      serverCapabilities: this.serverCapabilities,
      declared: this.declared,
      bridge: this.bridge,
      requests: this.requests,
      list: this.tasks,
      bounds: () => taskBounds(this.deps.settings().tasks),
      ...(this.deps.taskReferences && { references: this.deps.taskReferences }),
      relaySampling: this.deps.relaySampling === true,
      inFlight: () => [...this.inFlight],
      roots: this.deps.roots,
      log: this.log,
      authorized: (signal, operation) => this.authorized(operation, signal),
      ...(this.deps.onElicitationRefused && {
        onRefused: (calls, error) => this.deps.onElicitationRefused!(sourceOf(this.name, calls, true), { code: error.code, message: error.message }),
      }),
    });
  }

  /** The connection is gone or going: its tasks are let go of (not cancelled), task-backed questions withdrawn. */
  private dropTasks(reason: string): void {
    this.taskSupport?.close(new Error(reason));
    this.taskSupport = undefined;
  }

  private async close(live: Connected): Promise<void> {
    live.tap.dispose();
    await live.client.close().catch(() => undefined);
  }

  private scheduleReconnect(): void {
    const generation = this.generation;
    const delay = this.reconnect.schedule(() => {
      if (generation === this.generation) this.start().catch(() => undefined);
    });
    if (delay === undefined) return;
    this.log.info(`reconnecting in ${delay / 1000} s`);
    this.setState('error', `${this.detail ?? 'disconnected'}; reconnecting in ${Math.round(delay / 1000)} s`);
  }

  /** The server closed the connection (a stdio process ended, an SSE stream closed). */
  private onClosed(client: Client): void {
    const live = this.live;
    if (live?.client !== client) return;
    this.live = undefined;
    live.tap.dispose();
    this.dropTasks(`${this.name} disconnected`);
    this.tools = [];
    this.rawTools = [];
    const generation = this.generation;
    void (async () => {
      // So the message can say how the process ended, and with what last words.
      await live.process?.settled(EXIT_WAIT_MS);
      if (generation !== this.generation) return;
      this.crash = live.process?.ended;
      const message = this.crash ? describeCrash(this.crash) : 'the connection closed';
      this.log.error(`${this.name} stopped unexpectedly: ${message}`);
      this.setState('error', message);
      if (isHttp(this.definition.config)) this.scheduleReconnect();
    })();
  }

  /** Pings the server; if it does not answer, the connection is lost (and, over HTTP, retried). */
  private checkAlive(client: Client): void {
    const live = this.live;
    if (this.checking || live?.client !== client) return;
    this.checking = true;
    client
      .ping({ timeout: PING_TIMEOUT_MS })
      .catch((error: unknown) => this.connectionLost(live, `the server stopped answering (${describeLoss(error)})`))
      .finally(() => (this.checking = false));
  }

  private connectionLost(live: Connected, message: string): void {
    if (this.live !== live) return;
    this.live = undefined;
    this.dropTasks(`${this.name} disconnected`);
    this.tools = [];
    this.rawTools = [];
    void this.close(live);
    this.log.error(`${this.name}: ${message}`);
    this.setState('error', message);
    if (isHttp(this.definition.config)) this.scheduleReconnect();
  }

  private requireLive(): Connected {
    if (!this.live) throw new CallError(`${this.name} is not running${this.state === 'error' && this.detail ? `: ${this.detail}` : ''}`);
    return this.live;
  }

  /** Sends a request of ours, answering every question it raises (see calls.ts). */
  private call(method: CallMethod, params: Record<string, unknown>, label: string, options: CallOptions): Promise<unknown> {
    const live = this.requireLive();
    const running = runCall(
      {
        server: this.name,
        live,
        sdk: this.sdk!,
        settings: this.deps.settings(),
        era: this.era,
        declared: this.declared,
        tools: this.tools,
        bridge: this.bridge,
        inFlight: this.inFlight,
        roots: this.deps.roots,
        log: this.log,
        failure: (error, signal) => this.failure(error, signal, live),
        authorized: (signal, operation) => this.authorized(operation, signal),
        ...(this.taskSupport && { tasks: this.taskSupport }),
      },
      { method, params, label },
      options,
    );
    // runCall counts the call in flight before its first await and forgets it before it settles.
    this.onCallsChanged.fire();
    return running.finally(() => this.onCallsChanged.fire());
  }

  /** What a failed request means for the person, secrets out; a server that is gone is marked lost. */
  private async failure(error: unknown, signal: AbortSignal | undefined, live: Connected): Promise<Error> {
    if (requiredLinksOf(error) && !signal?.aborted) return error as Error;
    if (signal?.aborted) return new CallError(this.redactor.text(abortMessage(signal)));
    if (error instanceof CallError) return this.redactor.error(error);
    if (isConnectionClosed(error)) {
      // The close comes before the exit: wait (briefly) for how the process ended and its last words.
      await live.process?.settled(EXIT_WAIT_MS);
      const crash = live.process?.ended ?? this.crash;
      return new CallError(`${this.name} disconnected before answering${crash ? ` (${this.redactor.text(describeCrash(crash))})` : ''}`);
    }
    const code = networkCodeOf(error);
    if (code && isHttp(this.definition.config)) {
      this.connectionLost(live, `the server cannot be reached (${code})`);
      return new CallError(`${this.name} cannot be reached (${code})`);
    }
    return new CallError(this.redactor.text(errorMessage(error)), rpcCodeOf(error));
  }
}
