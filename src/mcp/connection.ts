/**
 * One MCP server connection's lifecycle: start (an SDK 2.x `Client`, version negotiation
 * `auto`), stop, reconnect (HTTP), liveness, its lists, and the calls made through it. The
 * jobs it coordinates live beside it: `transports` (reaching the server), `wire-tap`
 * (traffic, raw results), `process-watch` (stderr, exit), `rounds` (input-required and
 * -32042), `elicit-bridge` and `server-requests` (questions to the person),
 * `capabilities`, `errors`, `redaction`.
 *
 * Every start and every stop begins a new generation: whatever an older one was awaiting
 * (a handshake, a tool list, a dead process's exit, a reconnection timer) finds the
 * generation moved on when it resumes, and ends without touching the state; a client an
 * outdated start yields is closed.
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
import { declaredCapabilities, withCallCapabilities } from './capabilities';
import type { ServerDefinition } from './config';
import { ElicitBridge, type InFlightCall } from './elicit-bridge';
import {
  abortMessage,
  CallError,
  errorMessage,
  httpStatusOf,
  isConnectionClosed,
  networkCodeOf,
  requiredLinksOf,
  RpcCode,
  RpcError,
  rpcCodeOf,
} from './errors';
import { Listeners } from './listeners';
import type { CallOptions, ConnectionDeps, ListKind, ServerLog } from './ports';
import { type CrashInfo, describeCrash } from './process-watch';
import { Redactor } from './redaction';
import { runRounds } from './rounds';
import { loadSdk, type Sdk } from './sdk-loader';
import { ServerRequests } from './server-requests';
import { toToolInfo, type ToolInfo } from './tool-info';
import { connect, type Connected, isHttp, StdioStartError, type TransportKind } from './transports';
import { Watchdog } from './watchdog';

export type { CrashInfo } from './process-watch';

/** setTimeout's largest delay; `Infinity` would fire at once. Our watchdog owns the real limit. */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;
/** Waits before each reconnection of an HTTP server; the last one repeats. */
const DEFAULT_RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000, 30000];
/** How long a closed stdio server's exit (and its last stderr lines) is awaited before the person is told. */
const EXIT_WAIT_MS = 1000;
const PING_TIMEOUT_MS = 3000;

/** The wait before reconnection attempt `attempt` (from 0); undefined when reconnecting is off (no delays). */
export function reconnectDelay(delaysMs: readonly number[], attempt: number): number | undefined {
  return delaysMs.length === 0 ? undefined : delaysMs[Math.min(attempt, delaysMs.length - 1)];
}

export type ServerState = 'stopped' | 'starting' | 'running' | 'error';

type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

interface TrackedCall extends InFlightCall {
  /** Aborts the call from inside (the server is stopped). */
  readonly abort: AbortController;
}

export class ServerConnection {
  readonly onDidChange = new Listeners<ServerConnection>();
  /** A list of the server's changed: it said so, or it (re)started with a new one. */
  readonly onListChanged = new Listeners<ListKind>();

  private live: Connected | undefined;
  private sdk: Sdk | undefined;
  private generation = 0;
  private startAbort: AbortController | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectAttempt = 0;
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

  /** `definition` arrives resolved, so it may hold secrets: never show it. */
  constructor(
    readonly definition: ServerDefinition,
    private readonly deps: ConnectionDeps,
  ) {
    this.redactor = new Redactor(deps.secrets);
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

  /** Starts the server; rejects with a CallError ready to show (also when `stop()` ends the start). */
  async start(): Promise<void> {
    if (this.state === 'running' || this.state === 'starting') return;
    const generation = ++this.generation;
    this.clearReconnect();
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
      this.log.info(`connected over ${live.kind}, protocol ${this.protocolVersion} (${this.era} era), server ${version?.name ?? '?'} ${version?.version ?? ''}`);
      await this.refreshTools();
      if (generation !== this.generation) throw stoppedWhileStarting();
      this.reconnectAttempt = 0;
      this.setState('running');
      for (const kind of ['tools', 'resources', 'prompts'] as const) this.onListChanged.fire(kind);
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
      if (isHttp(this.definition.config)) this.scheduleReconnect();
      throw new CallError(message);
    } finally {
      if (this.startAbort === abort) this.startAbort = undefined;
    }
  }

  /** Stops the server: ends a start in progress, every call and question, any reconnection. */
  async stop(): Promise<void> {
    this.generation++;
    this.startAbort?.abort(new Error(`${this.name} was stopped`));
    this.clearReconnect();
    const live = this.live;
    this.live = undefined;
    for (const call of this.inFlight) call.abort.abort(new Error(`${this.name} was stopped`));
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
    const { tools } = await live.client.listTools(undefined, { cacheMode: 'refresh' }).catch((error: unknown) => {
      throw this.failure(error, undefined, live);
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
    return request(live.client).catch((error: unknown) => {
      throw this.failure(error, undefined, live);
    });
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
      if (request.method === 'elicitation/create') return this.requests.elicit(request.params, ctx.mcpReq.signal);
      if (request.method === 'sampling/createMessage') return this.requests.sample(request.params, ctx.mcpReq.signal);
      throw new RpcError(RpcCode.methodNotFound, `Method not found: ${request.method}`);
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

  private async close(live: Connected): Promise<void> {
    live.tap.dispose();
    await live.client.close().catch(() => undefined);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
  }

  private scheduleReconnect(): void {
    const delay = reconnectDelay(this.deps.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS, this.reconnectAttempt);
    if (delay === undefined) return;
    this.reconnectAttempt++;
    this.clearReconnect();
    const generation = this.generation;
    this.log.info(`reconnecting in ${delay / 1000} s`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (generation === this.generation) this.start().catch(() => undefined);
    }, delay);
    this.setState('error', `${this.detail ?? 'disconnected'}; reconnecting in ${Math.round(delay / 1000)} s`);
  }

  /** The server closed the connection (a stdio process ended, an SSE stream closed). */
  private onClosed(client: Client): void {
    const live = this.live;
    if (live?.client !== client) return;
    this.live = undefined;
    live.tap.dispose();
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
      .catch((error: unknown) => this.connectionLost(live, `the server stopped answering (${this.describeLoss(error)})`))
      .finally(() => (this.checking = false));
  }

  private describeLoss(error: unknown): string {
    const code = networkCodeOf(error);
    if (code) return `cannot be reached: ${code}`;
    const status = httpStatusOf(error);
    if (status !== undefined) return `HTTP ${status}`;
    return errorMessage(error);
  }

  private connectionLost(live: Connected, message: string): void {
    if (this.live !== live) return;
    this.live = undefined;
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

  /**
   * Sends a request and, while the result asks for input instead of answering, fulfils
   * every input request and retries (see rounds.ts).
   */
  private async call(method: CallMethod, params: Record<string, unknown>, label: string, options: CallOptions): Promise<unknown> {
    const live = this.requireLive();
    const settings = this.deps.settings();
    const timeoutSeconds = Math.round(settings.toolTimeoutMs / 1000);
    const watchdog = new Watchdog(settings.toolTimeoutMs, () => `${label} on ${this.name} timed out: no answer or progress for ${timeoutSeconds} s`);
    const abort = new AbortController();
    const signal = AbortSignal.any([watchdog.signal, abort.signal, ...(options.signal ? [options.signal] : [])]);
    const tool = method === 'tools/call' ? this.tools.find((t) => t.name === label) : undefined;
    const call: TrackedCall = {
      name: label,
      ...(tool && { tool }),
      ...(options.caller && { caller: options.caller }),
      ...(options.sampling && { sampling: options.sampling }),
      ...(options.onProgress && { onProgress: options.onProgress }),
      watchdog,
      abort,
      signal,
    };
    this.inFlight.add(call);
    const sampler = options.sampling;
    try {
      // In the 2026 era capabilities travel with each request: declare sampling only for a call that can answer it.
      const sent = this.era === 'modern' ? withCallCapabilities(params, this.declared, sampler !== undefined) : params;
      return await runRounds(sent, {
        server: this.name,
        label,
        maxRounds: settings.maxRounds,
        signal,
        send: (current) => this.send(live, method, current, call),
        elicit: (raw, o) => this.bridge.elicit(raw, signal, [call], o?.asForm),
        roots: () => this.deps.roots(),
        ...(sampler && {
          sample: async (request, s) => {
            const resume = watchdog.pause();
            try {
              return await sampler(request, s);
            } finally {
              resume();
            }
          },
        }),
        waitForBrowser: (url, completed) => this.bridge.waitForBrowser(call, url, signal, completed),
        completion: (id, message) => this.bridge.completion(id, message),
        progress: (p) => options.onProgress?.(p),
        log: (line) => this.log.info(line),
      });
    } catch (error) {
      throw this.failure(error, signal, live);
    } finally {
      this.inFlight.delete(call);
      watchdog.dispose();
    }
  }

  /** One request of a call; the raw form of a result that asks for input, as the server sent it. */
  private async send(live: Connected, method: CallMethod, params: Record<string, unknown>, call: TrackedCall): Promise<unknown> {
    const watched = live.tap.watch(method, params);
    try {
      const result = await live.client.request({ method, params }, this.sdk!.AnyResultSchema, {
        timeout: NO_SDK_TIMEOUT,
        signal: call.signal,
        allowInputRequired: true,
        onprogress: (p) => {
          call.watchdog.reset();
          call.onProgress?.({ progress: p.progress, ...(p.total !== undefined && { total: p.total }), ...(p.message !== undefined && { message: p.message }) });
        },
      });
      return watched.rawResult() ?? result;
    } catch (error) {
      // -32042 is for the rounds to handle.
      if (requiredLinksOf(error) && !call.signal.aborted) throw error;
      throw this.failure(error, call.signal, live);
    } finally {
      watched.done();
    }
  }

  /** What a failed request means for the person, secrets out; a server that is gone is marked lost. */
  private failure(error: unknown, signal: AbortSignal | undefined, live: Connected): Error {
    if (requiredLinksOf(error) && !signal?.aborted) return error as Error;
    if (signal?.aborted) return new CallError(this.redactor.text(abortMessage(signal)));
    if (error instanceof CallError) return this.redactor.error(error);
    if (isConnectionClosed(error)) {
      return new CallError(`${this.name} disconnected before answering${this.crash ? ` (${this.redactor.text(describeCrash(this.crash))})` : ''}`);
    }
    const code = networkCodeOf(error);
    if (code && isHttp(this.definition.config)) {
      this.connectionLost(live, `the server cannot be reached (${code})`);
      return new CallError(`${this.name} cannot be reached (${code})`);
    }
    return new CallError(this.redactor.text(errorMessage(error)), rpcCodeOf(error));
  }
}
