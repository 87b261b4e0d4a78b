/**
 * One MCP server connection: an SDK 2.x `Client` with version negotiation `auto`, its
 * transport (stdio, or Streamable HTTP falling back to legacy SSE), its tools, and the
 * tool calls made through it. Every question the server asks reaches the broker.
 *
 * Where the SDK would get between the server and our parser, we take the raw request:
 * the SDK's own elicitation handler strips `pattern` and option descriptions and answers
 * nested schemas with its own -32602 before any handler runs. So 2025-era
 * `elicitation/create` is served by the raw fallback handler, and input-required rounds
 * (2026-07-28, and the draft shape) run in manual mode through one loop of ours.
 */
import type { ChildProcess } from 'node:child_process';
import type { CallToolResult, Client, JSONRPCMessage, JSONRPCRequest, Tool, Transport } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AnswerCheckError, type Broker, type FormParams, TooManyRequestsError, type UrlParams } from '../elicitation/broker';
import { draftAsSchema, type InputRequired, recognizeInputRequired, retryParams } from '../elicitation/input-required';
import type { ElicitResult } from '../elicitation/model';
import type { RequestSource } from '../elicitation/request';
import { describeProblems, InvalidSchemaError } from '../elicitation/schema';
import type { ServerDefinition } from './config';
import { Listeners } from './listeners';
import { loadSdk, type Sdk } from './sdk-loader';
import { Watchdog } from './watchdog';

/** setTimeout's largest delay; `Infinity` would fire at once. Our watchdog owns the real limit. */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;
/** `URLElicitationRequiredError`: the call needs the person to visit links first. */
const URL_ELICITATION_REQUIRED = -32042;
const STDERR_LINES_KEPT = 20;
/** The one protocol version without elicitation modes: form only. */
const FORM_ONLY_PROTOCOL = '2025-06-18';
/** A request needed a capability the client did not declare (MCP 2026-07-28). */
const MISSING_CLIENT_CAPABILITY = -32021;
/** Waits before each reconnection of an HTTP server; the last one repeats. */
const DEFAULT_RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000, 30000];

/** The wait before reconnection attempt `attempt` (from 0); undefined when reconnecting is off (no delays). */
export function reconnectDelay(delaysMs: readonly number[], attempt: number): number | undefined {
  return delaysMs.length === 0 ? undefined : delaysMs[Math.min(attempt, delaysMs.length - 1)];
}

/** The error under this one: its `cause`, or where the SDK keeps it (`data.cause`). */
function causeOf(error: unknown): unknown {
  const e = error as { cause?: unknown; data?: { cause?: unknown } };
  return e.cause ?? e.data?.cause;
}

/** The first thing `read` finds along an error's cause chain (the SDK wraps its HTTP errors in negotiation errors). */
function inCauseChain<T>(error: unknown, read: (e: unknown) => T | undefined): T | undefined {
  for (let e: unknown = error; e; e = causeOf(e)) {
    const found = read(e);
    if (found !== undefined) return found;
  }
  return undefined;
}

function httpStatusOf(error: unknown): number | undefined {
  return inCauseChain(error, (e) => {
    const status = (e as { status?: unknown }).status ?? (e as { data?: { status?: unknown } }).data?.status;
    return typeof status === 'number' ? status : undefined;
  });
}

/** Why an HTTP server could not be used, in words: its status, or the network error's code (ECONNREFUSED...). */
function describeHttpFailure(url: URL, error: unknown): string {
  const status = httpStatusOf(error);
  if (status !== undefined) return `${url.href} answered HTTP ${status}: ${errorMessage(error)}`;
  const code = inCauseChain(error, (e) => {
    const value = (e as { code?: unknown }).code;
    return typeof value === 'string' && /^E[A-Z]+$/.test(value) ? value : undefined;
  });
  return code ? `${url.href} cannot be reached (${code})` : `${url.href} cannot be used: ${errorMessage(error)}`;
}

/** A Streamable HTTP failure that means "this server speaks the older HTTP+SSE transport": a 4xx other than authorization. */
function answersLikeLegacySse(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

export type ServerState = 'stopped' | 'starting' | 'running' | 'error';

export interface ServerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  trace(message: string): void;
  /** JSON-RPC traffic is only serialised for the log when someone reads it. */
  readonly traceEnabled: boolean;
  /** A line the server wrote to stderr. */
  stderr(line: string): void;
}

export interface ConnectionSettings {
  /** Advertise URL mode (`elicitationHost.url.enabled`). */
  readonly urlMode: boolean;
  /** Fill fields left empty with their defaults when the person accepts. */
  readonly applyDefaults: boolean;
  /** A tool call fails after this long without progress; paused while it waits on a question. 0: never. */
  readonly toolTimeoutMs: number;
  /** A question is withdrawn after this long unanswered. 0: never (the default). */
  readonly elicitationTimeoutMs: number;
  /** Input-required rounds allowed for one call before we stop. */
  readonly maxRounds: number;
  /** `auto` offers MCP 2026-07-28 and falls back to the 2025 handshake; `legacy` uses the 2025 handshake only. */
  readonly negotiation?: 'auto' | 'legacy';
}

/** The person's side of a link flow, beyond the link prompt itself. */
export interface UrlFlow {
  /**
   * After a link was opened where only a retry tells the outcome (MCP 2026-07-28, and a
   * -32042 retry): true when the person says they have finished in the browser, false
   * when they cancel the call.
   */
  finishedInBrowser(source: RequestSource, url: string, signal: AbortSignal): Promise<boolean>;
  /** The server reported a URL elicitation complete. */
  completed(server: string, message: string): void;
}

export interface Root {
  readonly uri: string;
  readonly name?: string;
}

export interface ConnectionDeps {
  readonly broker: Broker;
  readonly log: ServerLog;
  readonly settings: () => ConnectionSettings;
  readonly roots: () => readonly Root[];
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly urlFlow: UrlFlow;
  /** Where `http` servers reconnect after an unexpected close: delays in ms, last one repeats. */
  readonly reconnectDelaysMs?: readonly number[];
  /**
   * A 2025-era question was refused with a protocol error (a schema outside the elicitation
   * subset, a mode this client does not offer, too many open questions): the server got
   * the error and the call goes on, so nothing else would tell the caller.
   */
  readonly onElicitationRefused?: (source: RequestSource, error: { readonly code: number; readonly message: string }) => void;
}

export interface ToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly destructive: boolean;
  readonly readOnly: boolean;
}

export interface CallProgress {
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
  /** The input-required round, from 1, while the server asks for more input. */
  readonly round?: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: CallProgress) => void;
  /** The person started this call themselves (Run Tool): its questions may take a modal (RequestSource.personStarted). */
  readonly personStarted?: boolean;
}

export interface CrashInfo {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderrTail: readonly string[];
}

/** A user-facing failure of a call (timeout, cancel, too many rounds...), message ready to show. */
export class CallError extends Error {
  constructor(message: string, readonly code?: number) {
    super(message);
    this.name = 'CallError';
  }
}

interface InFlightCall {
  readonly tool: ToolInfo | undefined;
  readonly name: string;
  readonly personStarted: boolean;
  readonly watchdog: Watchdog;
  /** Aborts the call from inside (the server is stopped). */
  readonly abort: AbortController;
  /** Fires when the call ends early for any reason: timeout, stop, or the caller's cancel. */
  readonly signal: AbortSignal;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childProcessOf(transport: Transport): ChildProcess | undefined {
  // The SDK keeps the child private and forgets its exit code; we only read it to tell the
  // person how a crashed server ended.
  return (transport as unknown as { _process?: ChildProcess })._process;
}

export class ServerConnection {
  readonly onDidChange = new Listeners<ServerConnection>();

  private client: Client | undefined;
  /** The SDK bundle, loaded by the first start. */
  private sdk!: Sdk;
  private stopping = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectAttempt = 0;
  private readonly inFlight = new Set<InFlightCall>();
  /** Accepted URL elicitations whose completion the server may report, by elicitationId. */
  private readonly awaitingCompletion = new Map<string, { message: string; done: () => void }>();
  private readonly stderrTail: string[] = [];

  state: ServerState = 'stopped';
  /** Why the server is in `error`, or what `starting` is waiting for. */
  detail: string | undefined;
  crash: CrashInfo | undefined;
  protocolVersion: string | undefined;
  era: 'legacy' | 'modern' | undefined;
  transportKind: 'stdio' | 'streamable-http' | 'sse' | undefined;
  serverInfo: { name: string; version: string } | undefined;
  /** What the server declared it offers (tools, prompts, resources...), as negotiated. */
  serverCapabilities: Readonly<Record<string, unknown>> | undefined;
  tools: readonly ToolInfo[] = [];

  constructor(
    readonly definition: ServerDefinition,
    private readonly deps: ConnectionDeps,
  ) {}

  get name(): string {
    return this.definition.name;
  }

  private setState(state: ServerState, detail?: string): void {
    this.state = state;
    this.detail = detail;
    this.onDidChange.fire(this);
  }

  async start(): Promise<void> {
    if (this.state === 'running' || this.state === 'starting') return;
    this.stopping = false;
    this.crash = undefined;
    this.stderrTail.length = 0;
    this.setState('starting');
    try {
      this.sdk = await loadSdk();
      const { client, kind } = await this.connect();
      this.client = client;
      this.transportKind = kind;
      this.protocolVersion = client.getNegotiatedProtocolVersion();
      this.era = client.getProtocolEra();
      const version = client.getServerVersion();
      this.serverInfo = version && { name: version.name, version: version.version };
      this.serverCapabilities = client.getServerCapabilities() as Record<string, unknown> | undefined;
      this.reconnectAttempt = 0;
      this.deps.log.info(`connected over ${kind}, protocol ${this.protocolVersion} (${this.era} era), server ${version?.name ?? '?'} ${version?.version ?? ''}`);
      await this.refreshTools();
      this.setState('running');
    } catch (error) {
      this.client = undefined;
      const message = this.describeStartFailure(error);
      this.deps.log.error(`could not start: ${message}`);
      this.setState('error', message);
      if (this.definition.config.type !== 'stdio' && !this.stopping) this.scheduleReconnect();
      throw new CallError(message);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const client = this.client;
    this.client = undefined;
    for (const call of this.inFlight) call.abort.abort(new Error(`${this.name} was stopped`));
    await client?.close().catch(() => undefined);
    this.tools = [];
    this.setState('stopped');
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Tells the server the workspace folders changed. */
  rootsChanged(): void {
    if (this.state === 'running' && this.era === 'legacy') {
      this.client?.sendRootsListChanged().catch((e: unknown) => this.deps.log.warn(`roots/list_changed failed: ${String(e)}`));
    }
  }

  private describeStartFailure(error: unknown): string {
    const base = error instanceof Error ? error.message : String(error);
    if (this.crash) {
      const how = this.crash.exitCode !== null ? `exited with code ${this.crash.exitCode}` : `was killed by ${this.crash.signal}`;
      const tail = this.crash.stderrTail.length > 0 ? `; last output: ${this.crash.stderrTail.slice(-3).join(' | ')}` : '';
      return `the server ${how}${tail}`;
    }
    return base;
  }

  private scheduleReconnect(): void {
    const delay = reconnectDelay(this.deps.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS, this.reconnectAttempt);
    if (delay === undefined) return;
    this.reconnectAttempt++;
    this.deps.log.info(`reconnecting in ${delay / 1000} s`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.start().catch(() => undefined);
    }, delay);
    this.setState('error', `${this.detail ?? 'disconnected'}; reconnecting in ${Math.round(delay / 1000)} s`);
  }

  private createClient(): Client {
    const settings = this.deps.settings();
    const { Client, ProtocolError, ProtocolErrorCode } = this.sdk;
    const client = new Client(this.deps.clientInfo, {
      capabilities: {
        elicitation: settings.urlMode ? { form: {}, url: {} } : { form: {} },
        roots: { listChanged: true },
      },
      versionNegotiation: { mode: settings.negotiation ?? 'auto' },
      // Rounds are ours to drive: the SDK's driver would strip the schemas we must see.
      inputRequired: { autoFulfill: false },
    });
    client.fallbackRequestHandler = async (request: JSONRPCRequest, ctx) => {
      if (request.method === 'elicitation/create') {
        return (await this.onElicitationRequest(request.params, ctx.mcpReq.signal)) as unknown as Record<string, unknown>;
      }
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    };
    client.setRequestHandler('roots/list', () => ({ roots: this.deps.roots().map((r) => ({ ...r })) }));
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => this.onCompletion(notification.params.elicitationId));
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      this.refreshTools().catch((e: unknown) => this.deps.log.warn(`could not refresh tools: ${String(e)}`));
    });
    return client;
  }

  private async connect(): Promise<{ client: Client; kind: 'stdio' | 'streamable-http' | 'sse' }> {
    const { StdioClientTransport, SSEClientTransport, StreamableHTTPClientTransport } = this.sdk;
    const config = this.definition.config;
    if (config.type === 'stdio') {
      const cwd = this.workingDirectory();
      const transport = new StdioClientTransport({
        command: config.command,
        args: [...config.args],
        env: this.stdioEnv(),
        ...(cwd !== undefined && { cwd }),
        stderr: 'pipe',
      });
      this.readStderr(transport);
      // Watched from the spawn on, so a server that dies during the handshake still says how.
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        this.watchExit(transport);
      };
      try {
        return { client: await this.connectWith(transport), kind: 'stdio' };
      } catch (error) {
        // The exit event and the last stderr lines land just after the close that failed the handshake.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw error;
      }
    }
    const url = new URL(config.url);
    const requestInit = { headers: { ...config.headers } };
    if (config.type === 'sse') {
      return { client: await this.connectWith(new SSEClientTransport(url, { requestInit })), kind: 'sse' };
    }
    try {
      return { client: await this.connectWith(new StreamableHTTPClientTransport(url, { requestInit })), kind: 'streamable-http' };
    } catch (streamableError) {
      // A server that predates Streamable HTTP refuses the POST with a 4xx status (404, 405...):
      // try legacy SSE. Anything else (unreachable, 5xx, authorization) is the real answer.
      if (!answersLikeLegacySse(streamableError)) throw new Error(describeHttpFailure(url, streamableError), { cause: streamableError });
      this.deps.log.info(`Streamable HTTP failed (${String(streamableError)}); trying legacy SSE`);
      try {
        return { client: await this.connectWith(new SSEClientTransport(url, { requestInit })), kind: 'sse' };
      } catch (sseError) {
        throw new Error(`${errorMessage(streamableError)} (and as legacy SSE: ${errorMessage(sseError)})`, { cause: sseError });
      }
    }
  }

  /**
   * Where a stdio server runs: its `cwd`, or else, for a server a workspace's mcp.json
   * defines, that workspace folder (so `node server.js` finds the workspace's file).
   */
  private workingDirectory(): string | undefined {
    const { config, source } = this.definition;
    if (config.type !== 'stdio') return undefined;
    return config.cwd ?? (source.kind === 'workspace' ? source.folder : undefined);
  }

  /**
   * The stdio environment: the extension host's, with the definition's `env` over it
   * (`null` removes a variable). The definition arrives resolved: variables substituted
   * and its env file already merged under `env`.
   */
  private stdioEnv(): Record<string, string> {
    const config = this.definition.config;
    if (config.type !== 'stdio') return {};
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    for (const [k, v] of Object.entries(config.env)) {
      if (v === null) delete env[k];
      else env[k] = v;
    }
    return env;
  }

  private async connectWith(transport: Transport): Promise<Client> {
    const client = this.createClient();
    this.traceTraffic(transport);
    client.onclose = () => this.onClosed(client);
    client.onerror = (error) => {
      this.deps.log.warn(`transport error: ${error.message}`);
      // An HTTP transport reports a vanished server as errors, never as a close: check it is still there.
      if (this.definition.config.type !== 'stdio' && /disconnected|fetch failed|ECONNREFUSED|terminated/i.test(error.message)) this.checkAlive(client);
    };
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return client;
  }

  /** Raw results that ask for input, by request id, until the call that sent the request reads them. */
  private readonly rawInputResults = new Map<string | number, unknown>();
  /** Calls waiting to learn the JSON-RPC id of the request they are about to send. */
  private readonly idCaptures: Array<{ readonly key: string; readonly resolve: (id: string | number) => void }> = [];

  /**
   * Watches the transport: JSON-RPC traffic for the trace log, the ids of the requests our
   * calls send, and the untouched form of results that ask for input (the SDK removes
   * `resultType` from them, and refuses them outright on a 2025-era connection).
   */
  private traceTraffic(transport: Transport): void {
    const log = this.deps.log;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (log.traceEnabled) log.trace(`→ ${JSON.stringify(message)}`);
      const m = message as { id?: string | number; method?: string; params?: Record<string, unknown> };
      if (m.id !== undefined && m.method && this.idCaptures.length > 0) {
        const key = requestKey(m.method, m.params ?? {});
        const index = this.idCaptures.findIndex((c) => c.key === key);
        if (index >= 0) this.idCaptures.splice(index, 1)[0].resolve(m.id);
      }
      return send(message, options);
    };
    // Set before connect: the SDK chains it and calls it first with the untouched message.
    transport.onmessage = (message: JSONRPCMessage) => {
      if (log.traceEnabled) log.trace(`← ${JSON.stringify(message)}`);
      const m = message as { id?: string | number; result?: Record<string, unknown> };
      if (m.id !== undefined && m.result && 'inputRequests' in m.result) this.rawInputResults.set(m.id, m.result);
    };
  }

  /**
   * The id of the next request sent with this method and params; `settled()` gives it, or
   * undefined if no such request went out (and stops waiting for one).
   */
  private captureRequestId(method: string, params: Record<string, unknown>): { settled(): string | number | undefined } {
    let captured: string | number | undefined;
    const capture = { key: requestKey(method, params), resolve: (id: string | number) => (captured = id) };
    this.idCaptures.push(capture);
    return {
      settled: () => {
        const index = this.idCaptures.indexOf(capture);
        if (index >= 0) this.idCaptures.splice(index, 1);
        return captured;
      },
    };
  }

  private readStderr(transport: StdioClientTransport): void {
    let partial = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        this.stderrTail.push(line);
        if (this.stderrTail.length > STDERR_LINES_KEPT) this.stderrTail.shift();
        this.deps.log.stderr(line);
      }
    });
  }

  private watchExit(transport: StdioClientTransport): void {
    childProcessOf(transport)?.once('exit', (code, signal) => {
      if (this.stopping) return;
      // The live tail, not a copy: lines that arrive just after the exit event count too
      // (it is only emptied by the next start, which also forgets the crash).
      this.crash = { exitCode: code, signal, stderrTail: this.stderrTail };
    });
  }

  private onClosed(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.tools = [];
    if (this.stopping) return;
    // Let the exit event land first, so the message can say how the process ended.
    setTimeout(() => {
      const message = this.crash ? this.describeStartFailure(undefined) : 'the connection closed';
      this.deps.log.error(`${this.name} stopped unexpectedly: ${message}`);
      this.setState('error', message);
      if (this.definition.config.type !== 'stdio') this.scheduleReconnect();
    }, 50);
  }

  private checking = false;

  /** Pings the server; if it does not answer, the connection is lost (and, over HTTP, retried). */
  private checkAlive(client: Client): void {
    if (this.checking || this.client !== client) return;
    this.checking = true;
    client
      .ping({ timeout: 3000 })
      .catch((error: unknown) => this.connectionLost(client, `the server stopped answering (${errorMessage(error)})`))
      .finally(() => (this.checking = false));
  }

  private connectionLost(client: Client, message: string): void {
    if (this.client !== client || this.stopping) return;
    this.client = undefined;
    this.tools = [];
    void client.close().catch(() => undefined);
    this.deps.log.error(`${this.name}: ${message}`);
    this.setState('error', message);
    if (this.definition.config.type !== 'stdio') this.scheduleReconnect();
  }

  async refreshTools(): Promise<readonly ToolInfo[]> {
    const client = this.requireClient();
    const tools: ToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools.map(toToolInfo));
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.onDidChange.fire(this);
    return tools;
  }

  private requireClient(): Client {
    if (!this.client) throw new CallError(`${this.name} is not running${this.state === 'error' && this.detail ? `: ${this.detail}` : ''}`);
    return this.client;
  }

  /** `notifications/elicitation/complete`: tell the person, and let whatever waits on it go on. */
  private onCompletion(elicitationId: string): void {
    const pending = this.awaitingCompletion.get(elicitationId);
    if (!pending) {
      this.deps.log.info(`ignored a completion notification for an elicitation this client does not know: ${elicitationId}`);
      return;
    }
    this.awaitingCompletion.delete(elicitationId);
    this.deps.log.info(`URL elicitation ${elicitationId} completed`);
    this.deps.urlFlow.completed(this.name, pending.message);
    pending.done();
  }

  /** Remembers an accepted URL elicitation; resolves when the server reports it complete. */
  private completion(elicitationId: string, message: string): Promise<void> {
    return new Promise((resolve) => {
      const earlier = this.awaitingCompletion.get(elicitationId);
      this.awaitingCompletion.set(elicitationId, {
        message,
        done: () => {
          earlier?.done();
          resolve();
        },
      });
    });
  }

  /**
   * The -32042 path: the server needs the person to visit links before the call can work.
   * Each is presented; when every one is completed (the server's notification) or the
   * person says they have finished in the browser, the call may be retried.
   */
  private async visitRequiredLinks(elicitations: readonly unknown[], call: InFlightCall, signal: AbortSignal): Promise<void> {
    const completions: Array<Promise<void>> = [];
    for (const entry of elicitations) {
      const raw = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
      const result = await this.elicit({ ...raw, mode: 'url' }, signal, [call]);
      if (signal.aborted) throw new CallError(abortMessage(signal));
      if (result.action !== 'accept') {
        throw new CallError(`${call.name} on ${this.name} needs you to open ${String(raw.url)}; you chose to ${result.action}, so it was not retried`);
      }
      if (typeof raw.elicitationId === 'string') completions.push(this.completion(raw.elicitationId, String(raw.message ?? '')));
    }
    await this.waitForBrowser(call, String((elicitations[0] as { url?: unknown } | undefined)?.url ?? ''), signal, Promise.all(completions));
  }

  /** Waits until `completed` settles or the person says they have finished (or cancels the call). */
  private async waitForBrowser(call: InFlightCall, url: string, signal: AbortSignal, completed?: Promise<unknown>): Promise<void> {
    const stop = new AbortController();
    const finished = this.deps.urlFlow.finishedInBrowser(this.sourceOf([call]), url, AbortSignal.any([signal, stop.signal]));
    const outcome = await Promise.race([
      ...(completed ? [completed.then(() => 'completed' as const)] : []),
      finished.then((done) => (done ? ('finished' as const) : ('cancelled' as const))),
    ]);
    stop.abort();
    if (outcome === 'cancelled') throw new CallError(signal.aborted ? abortMessage(signal) : `You cancelled ${call.name} while it waited for the browser`);
  }

  /**
   * Who asks, for the person: the server, and the tool when the question belongs to one
   * call for certain. A question that may belong to any of several calls names no tool,
   * and counts as destructive if any of them is: the safe reading of an unknown.
   */
  private sourceOf(calls: readonly InFlightCall[]): RequestSource {
    const tools = new Set(calls.map((c) => c.tool?.title ?? c.name));
    return {
      server: this.name,
      ...(tools.size === 1 && { tool: [...tools][0] }),
      ...(calls.some((c) => c.tool?.destructive) && { destructive: true }),
      // Only when every call it may belong to was the person's own.
      ...(calls.length > 0 && calls.every((c) => c.personStarted) && { personStarted: true }),
    };
  }

  /** Calls a tool, answering every question it asks along the way. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const result = await this.requestWithInput('tools/call', { name, arguments: args }, name, options);
    return result as CallToolResult;
  }

  /**
   * Sends a request and, while the result asks for input instead of answering, fulfils
   * every input request and retries: the one loop for every era and shape.
   */
  private async requestWithInput(
    method: 'tools/call' | 'prompts/get' | 'resources/read',
    params: Record<string, unknown>,
    label: string,
    options: CallOptions,
  ): Promise<unknown> {
    const client = this.requireClient();
    const settings = this.deps.settings();
    const timeoutSeconds = Math.round(settings.toolTimeoutMs / 1000);
    const watchdog = new Watchdog(settings.toolTimeoutMs, () => `${label} on ${this.name} timed out: no answer or progress for ${timeoutSeconds} s`);
    const abort = new AbortController();
    const signal = AbortSignal.any([watchdog.signal, abort.signal, ...(options.signal ? [options.signal] : [])]);
    const call: InFlightCall = {
      name: label,
      tool: method === 'tools/call' ? this.tools.find((t) => t.name === label) : undefined,
      personStarted: options.personStarted === true,
      watchdog,
      abort,
      signal,
    };
    this.inFlight.add(call);
    try {
      let current = params;
      let urlRetried = false;
      for (let round = 1; ; round++) {
        const sentId = this.captureRequestId(method, current);
        const result = await client
          .request({ method, params: current }, this.sdk.AnyResultSchema, {
            timeout: NO_SDK_TIMEOUT,
            signal,
            allowInputRequired: true,
            onprogress: (p) => {
              call.watchdog.reset();
              options.onProgress?.({ progress: p.progress, ...(p.total !== undefined && { total: p.total }), ...(p.message !== undefined && { message: p.message }) });
            },
          })
          .catch((error: unknown) => {
            if (error instanceof this.sdk.ProtocolError && error.code === URL_ELICITATION_REQUIRED) return error;
            throw this.callFailure(error, signal);
          });
        if (result instanceof this.sdk.ProtocolError) {
          // -32042: visit the links, then retry the same call once; never loop.
          const links = ((result.data as { elicitations?: unknown } | undefined)?.elicitations ?? []) as unknown[];
          if (urlRetried || !Array.isArray(links) || links.length === 0) {
            throw new CallError(`${this.name} still requires a link to be visited for ${label} (${result.message}); not retrying again`, URL_ELICITATION_REQUIRED);
          }
          urlRetried = true;
          options.onProgress?.({ message: `${this.name} needs you to open a link` });
          await this.visitRequiredLinks(links, call, signal);
          round--;
          continue;
        }
        const id = sentId.settled();
        const raw = id === undefined ? undefined : this.rawInputResults.get(id);
        if (id !== undefined) this.rawInputResults.delete(id);
        const inputRequired = recognizeInputRequired(raw ?? result);
        if (!inputRequired) return result;
        if (round > settings.maxRounds) {
          throw new CallError(
            `${this.name} asked for more input ${round} times for ${label}; stopped at the limit of ${settings.maxRounds} rounds (setting elicitationHost.inputRequired.maxRounds)`,
          );
        }
        options.onProgress?.({ round, message: `round ${round}: ${this.name} needs your input` });
        this.deps.log.info(`${label}: input required, round ${round} (${inputRequired.shape} shape, ${inputRequired.requests.length} request(s))`);
        const responses = await this.fulfil(inputRequired, call, signal);
        if (responses === 'ended') {
          return { content: [{ type: 'text', text: 'You ended this call: it was not retried.' }], isError: true };
        }
        current = retryParams(params, inputRequired, responses);
      }
    } finally {
      this.inFlight.delete(call);
      call.watchdog.dispose();
    }
  }

  /** Answers every input request of one round. 'ended' when the person ended a draft-shape round. */
  private async fulfil(
    inputRequired: InputRequired,
    call: InFlightCall,
    signal: AbortSignal,
  ): Promise<Record<string, unknown> | 'ended'> {
    if (inputRequired.shape === 'draft') {
      const schema = draftAsSchema(inputRequired.requests);
      const result = await this.elicit(
        { message: inputRequired.description ?? `${this.name} needs more input for ${call.name}`, requestedSchema: schema },
        signal,
        [call],
        true,
      );
      // The draft has no way to send a refusal: ending the round ends the call.
      if (result.action !== 'accept') return 'ended';
      return { ...result.content };
    }
    const responses: Record<string, unknown> = {};
    for (const request of inputRequired.requests) {
      switch (request.method) {
        case 'elicitation/create': {
          const result = await this.elicit(request.params, signal, [call]).catch((error: unknown) => {
            throw new CallError(`${this.name} asked a question this client cannot show: ${errorMessage(error)}`, errorCode(this.sdk, error));
          });
          if (signal.aborted) throw new CallError(abortMessage(signal));
          if (request.params.mode === 'url' && result.action === 'accept') {
            // No completion notification in this revision: the retry tells the outcome, once the person is done.
            await this.waitForBrowser(call, String(request.params.url), signal);
          }
          responses[request.key] = result;
          break;
        }
        case 'roots/list':
          responses[request.key] = { roots: this.deps.roots().map((r) => ({ ...r })) };
          break;
        default:
          // As the SDK's own driver does for a request it has no handler for: the call ends with the reason.
          throw new CallError(
            `${this.name} asked for ${request.method === 'sampling/createMessage' ? 'sampling (an LLM completion)' : request.requested}, which this client does not offer (it did not declare that capability)`,
            MISSING_CLIENT_CAPABILITY,
          );
      }
    }
    return responses;
  }

  /** A 2025-era `elicitation/create` request from the server, raw. */
  private async onElicitationRequest(params: unknown, serverSignal: AbortSignal): Promise<ElicitResult> {
    // The wire does not say which call a request belongs to: any call in flight may own it.
    const candidates = [...this.inFlight];
    if (candidates.length > 1) this.deps.log.info(`a question arrived while ${candidates.length} calls were running; it is not attributed to one of them`);
    try {
      return await this.elicit(params, serverSignal, candidates);
    } catch (error) {
      const refusal = toProtocolError(this.sdk, error);
      this.deps.log.warn(`refused a question (${refusal.code}): ${refusal.message}`);
      this.deps.onElicitationRefused?.(this.sourceOf(candidates), { code: refusal.code, message: refusal.message });
      throw refusal;
    }
  }

  /**
   * Puts one elicitation to the broker. The tool call it belongs to (when known) stops
   * its timeout clock meanwhile; the question closes when the server withdraws it, the
   * connection closes, our own timeout (if set) passes or its call is cancelled.
   */
  private async elicit(rawParams: unknown, serverSignal: AbortSignal, calls: readonly InFlightCall[], asForm = false): Promise<ElicitResult> {
    const { ProtocolError, ProtocolErrorCode } = this.sdk;
    const params = readElicitParams(this.sdk, rawParams);
    const settings = this.deps.settings();
    if (params.mode === 'url' && !settings.urlMode) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'URL-mode elicitation is not supported by this client (it is turned off)');
    }
    if (params.mode === 'url' && this.protocolVersion === FORM_ONLY_PROTOCOL) {
      // 2025-06-18 knows form mode only: a link from such a server is refused, not opened.
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `URL-mode elicitation is not part of MCP ${FORM_ONLY_PROTOCOL}, the version this server negotiated`);
    }
    const controller = new AbortController();
    const onServerAbort = (): void => controller.abort(new Error(this.describeServerAbort(serverSignal.reason)));
    if (serverSignal.aborted) onServerAbort();
    serverSignal.addEventListener('abort', onServerAbort, { once: true });
    // Closed when the call it belongs to ends early; when that is not known for certain, when every call it may belong to has.
    const onCallAbort = (): void => {
      if (calls.every((c) => c.signal.aborted)) controller.abort(new Error(`the call to ${calls.map((c) => c.name).join(' and ')} ended`));
    };
    for (const c of calls) c.signal.addEventListener('abort', onCallAbort, { once: true });
    const timer =
      settings.elicitationTimeoutMs > 0
        ? setTimeout(() => controller.abort(new Error(`no answer within ${Math.round(settings.elicitationTimeoutMs / 1000)} s`)), settings.elicitationTimeoutMs)
        : undefined;
    // While any question is open, no call of this server times out under the person's hands.
    const resumes = [...this.inFlight].map((c) => c.watchdog.pause());
    const source = this.sourceOf(calls);
    try {
      const result = await this.deps.broker.elicit(params, { source, signal: controller.signal, applyDefaults: settings.applyDefaults, asForm });
      if (params.mode === 'url' && params.elicitationId && result.action === 'accept' && !this.awaitingCompletion.has(params.elicitationId)) {
        void this.completion(params.elicitationId, params.message);
      }
      return result;
    } finally {
      serverSignal.removeEventListener('abort', onServerAbort);
      for (const c of calls) c.signal.removeEventListener('abort', onCallAbort);
      if (timer) clearTimeout(timer);
      resumes.forEach((resume) => resume());
    }
  }

  private describeServerAbort(reason: unknown): string {
    const { SdkError, SdkErrorCode } = this.sdk;
    if (reason instanceof SdkError && reason.code === SdkErrorCode.ConnectionClosed) return `${this.name} disconnected`;
    const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
    return text ? `${this.name} withdrew the question: ${text}` : `${this.name} withdrew the question`;
  }

  private callFailure(error: unknown, signal: AbortSignal): Error {
    const { SdkError, SdkErrorCode } = this.sdk;
    if (signal.aborted) return new CallError(abortMessage(signal));
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
      return new CallError(`${this.name} disconnected before answering${this.crash ? ` (${this.describeStartFailure(undefined)})` : ''}`);
    }
    if (error instanceof TypeError && /fetch failed/.test(error.message) && this.client) {
      const cause = (error as { cause?: unknown }).cause;
      this.connectionLost(this.client, `the server cannot be reached (${errorMessage(cause ?? error)})`);
      return new CallError(`${this.name} cannot be reached: ${errorMessage(cause ?? error)}`);
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Identifies a request by what it asks, whatever `_meta` the SDK adds and however it orders keys. */
function requestKey(method: string, params: Record<string, unknown>): string {
  const { _meta: _ignored, ...rest } = params;
  const stable = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(stable)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]))
        : value;
  return JSON.stringify([method, stable(rest)]);
}

function toToolInfo(tool: Tool): ToolInfo {
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.annotations?.title !== undefined && tool.title === undefined && { title: tool.annotations.title }),
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    destructive: tool.annotations?.destructiveHint === true,
    readOnly: tool.annotations?.readOnlyHint === true,
  };
}

/** Checks the request's own shape (not the schema: that is the broker's), naming the field at fault. */
function readElicitParams({ ProtocolError, ProtocolErrorCode }: Sdk, raw: unknown): FormParams | UrlParams {
  const bad = (message: string): never => {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid elicitation request: ${message}`);
  };
  if (!isRecord(raw)) return bad('params must be an object');
  const mode = raw.mode ?? 'form';
  if (typeof raw.message !== 'string') bad('params.message must be a string');
  const message = raw.message as string;
  if (mode === 'url') {
    if (typeof raw.url !== 'string') bad('params.url must be a string');
    if (raw.elicitationId !== undefined && typeof raw.elicitationId !== 'string') bad('params.elicitationId must be a string');
    return { mode: 'url', message, url: raw.url as string, ...(typeof raw.elicitationId === 'string' && { elicitationId: raw.elicitationId }) };
  }
  if (mode !== 'form') bad(`params.mode must be "form" or "url", not ${JSON.stringify(mode)}`);
  if (raw.requestedSchema === undefined) bad('params.requestedSchema is required in form mode');
  return { mode: 'form', message, requestedSchema: raw.requestedSchema };
}

/** Maps our failures to what the server receives. */
function toProtocolError({ ProtocolError, ProtocolErrorCode }: Sdk, error: unknown): InstanceType<Sdk['ProtocolError']> {
  if (error instanceof ProtocolError) return error;
  if (error instanceof InvalidSchemaError) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid elicitation schema: ${describeProblems(error.problems)}`, {
      problems: error.problems,
    });
  }
  if (error instanceof TooManyRequestsError) return new ProtocolError(ProtocolErrorCode.InvalidRequest, error.message);
  if (error instanceof AnswerCheckError) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  return new ProtocolError(ProtocolErrorCode.InternalError, errorMessage(error));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorCode({ ProtocolError }: Sdk, error: unknown): number | undefined {
  return error instanceof ProtocolError ? error.code : undefined;
}

function abortMessage(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' && reason ? reason : 'the call was cancelled';
}
