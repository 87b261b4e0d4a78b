/**
 * The bridge from a server's question to the broker: which calls it may belong to (and so
 * who is shown as asking), when it closes (the server withdraws it, the connection drops,
 * our own timeout, the end of every call it may belong to), the calls' timeout clocks
 * paused meanwhile, and the registry of accepted URL elicitations whose completion the
 * server may report.
 */
import { setMaxListeners } from 'node:events';
import type { Broker } from '../../elicitation/broker';
import { type ParamsEdge, readElicitParams } from '../../elicitation/elicit-params';
import type { ElicitResult } from '../../elicitation/model';
import type { RequestSource } from '../../elicitation/request';
import { abortMessage, CallError, describeServerAbort, RpcCode, RpcError } from '../errors';
import type { CallProgress, Caller, ConnectionSettings, Sampler, ServerLog, UrlFlow } from '../ports';
import type { ToolInfo } from '../tool-info';
import type { Watchdog } from './watchdog';
import { endedByThePerson, isEndedByThePerson } from '../../base/ended-by-person';

/** The one protocol version without elicitation modes: form only. */
const FORM_ONLY_PROTOCOL = '2025-06-18';

/** A request of ours a server's questions may belong to: a tools/call, prompts/get or resources/read in flight. */
export interface InFlightCall {
  /** The tool, prompt or resource called. */
  readonly name: string;
  readonly tool?: ToolInfo;
  readonly caller?: Caller;
  readonly sampling?: Sampler;
  readonly onProgress?: (progress: CallProgress) => void;
  readonly watchdog: Watchdog;
  /** Fires when the call ends early for any reason: timeout, stop, or the caller's cancel. */
  readonly signal: AbortSignal;
}

export interface BridgeDeps {
  readonly server: string;
  readonly broker: Broker;
  readonly settings: () => ConnectionSettings;
  readonly urlFlow: UrlFlow;
  readonly log: ServerLog;
  /** The version this connection negotiated. */
  protocolVersion(): string | undefined;
  /** Every call of this server in flight (their clocks stop while any question is open). */
  inFlight(): readonly InFlightCall[];
}

/**
 * Who asks, for the person: the server, and the tool when the question belongs to one call
 * for certain. A question that may belong to any of several calls names no tool, counts as
 * destructive if any of them is (the safe reading of an unknown), and carries an agent's
 * name (and its session's), or "the person started it", only when every one of those calls agrees.
 */
export function sourceOf(server: string, calls: readonly InFlightCall[], background = false): RequestSource {
  const tools = new Set(calls.map((c) => c.tool?.title ?? c.name));
  const agents = new Set(calls.map((c) => (c.caller?.kind === 'agent' ? c.caller.name : undefined)));
  const agent = agents.size === 1 ? [...agents][0] : undefined;
  const sessions = new Set(calls.map((c) => (c.caller?.kind === 'agent' ? c.caller.session : undefined)));
  const session = agent !== undefined && sessions.size === 1 ? [...sessions][0] : undefined;
  return {
    server,
    ...(tools.size === 1 && { tool: [...tools][0] }),
    ...(calls.some((c) => c.tool?.destructive) && { destructive: true }),
    ...(agent !== undefined && { agent }),
    ...(session !== undefined && { session }),
    ...(calls.length > 0 && calls.every((c) => c.caller?.kind === 'person') && { personStarted: true }),
    ...(background && { background: true }),
  };
}

/** How one question is asked, beyond its params. */
export interface ElicitOptions {
  /** Ask in the form whatever the question's shape (a draft-shape round). */
  readonly asForm?: boolean;
  /** It belongs to a background task (MCP Tasks): headed "tool (background task)". */
  readonly background?: boolean;
  /** Not subject to our own question timeout: a task's time to live bounds it instead. */
  readonly untimed?: boolean;
  /** `serverSignal`'s reason is already worded for the person (a task ended, expired, was cancelled). */
  readonly reasonAsIs?: boolean;
}

/** An MCP server's params as the core reads every edge's (elicitation/elicit-params.ts): a -32602 naming the field. */
const MCP_PARAMS: ParamsEdge = { prefix: 'params.', error: (message) => new RpcError(RpcCode.invalidParams, `Invalid elicitation request: ${message}`) };

export class ElicitBridge {
  /** Accepted URL elicitations whose completion the server may report, by elicitationId. */
  private readonly awaitingCompletion = new Map<string, { message: string; done: () => void }>();

  constructor(private readonly deps: BridgeDeps) {}

  /**
   * Puts one question to the broker. The calls it may belong to stop their timeout clocks
   * meanwhile; it closes when the server withdraws it (`serverSignal`), our own timeout
   * (if set) passes, or every call it may belong to has ended.
   */
  async elicit(rawParams: unknown, serverSignal: AbortSignal, calls: readonly InFlightCall[], options: ElicitOptions = {}): Promise<ElicitResult> {
    const { server, settings: readSettings, broker } = this.deps;
    const params = readElicitParams(rawParams, MCP_PARAMS);
    const settings = readSettings();
    if (params.mode === 'url' && !settings.urlMode) {
      throw new RpcError(RpcCode.invalidParams, 'URL-mode elicitation is not supported by this client (it is turned off)');
    }
    if (params.mode === 'url' && this.deps.protocolVersion() === FORM_ONLY_PROTOCOL) {
      // 2025-06-18 knows form mode only: a link from such a server is refused, not opened.
      throw new RpcError(RpcCode.invalidParams, `URL-mode elicitation is not part of MCP ${FORM_ONLY_PROTOCOL}, the version this server negotiated`);
    }
    const controller = new AbortController();
    const onServerAbort = (): void =>
      controller.abort(options.reasonAsIs && serverSignal.reason instanceof Error ? serverSignal.reason : new Error(describeServerAbort(server, serverSignal.reason)));
    if (serverSignal.aborted) onServerAbort();
    serverSignal.addEventListener('abort', onServerAbort, { once: true });
    const onCallAbort = (): void => {
      if (!calls.every((c) => c.signal.aborted)) return;
      const why = `the call to ${calls.map((c) => c.name).join(' and ')} ended`;
      // Every call stopped by the person (Run Tool's Stop): its questions close quietly, as they saw it.
      controller.abort(calls.every((c) => isEndedByThePerson(c.signal.reason)) ? endedByThePerson(why) : new Error(why));
    };
    // A 2025-era question cannot say which call it belongs to, so it watches every call in flight,
    // and each call is watched by every open question: up to the broker's cap, which grows with the calls.
    setMaxListeners(this.deps.inFlight().length + 10, ...calls.map((c) => c.signal));
    for (const c of calls) c.signal.addEventListener('abort', onCallAbort, { once: true });
    const timer =
      settings.elicitationTimeoutMs > 0 && !options.untimed
        ? setTimeout(() => controller.abort(new Error(`no answer within ${Math.round(settings.elicitationTimeoutMs / 1000)} s`)), settings.elicitationTimeoutMs)
        : undefined;
    // While any question is open, no call of this server times out under the person's hands.
    const resumes = this.deps.inFlight().map((c) => c.watchdog.pause());
    for (const c of calls) c.onProgress?.({ message: `${server} is waiting for your answer`, asking: true });
    try {
      const result = await broker.elicit(params, {
        source: sourceOf(server, calls, options.background),
        signal: controller.signal,
        applyDefaults: settings.applyDefaults,
        asForm: options.asForm === true,
        callsInFlight: this.deps.inFlight().length,
      });
      if (params.mode === 'url' && params.elicitationId && result.action === 'accept' && !this.awaitingCompletion.has(params.elicitationId)) {
        void this.completion(params.elicitationId, params.message);
      }
      return result;
    } finally {
      serverSignal.removeEventListener('abort', onServerAbort);
      for (const c of calls) c.signal.removeEventListener('abort', onCallAbort);
      if (timer) clearTimeout(timer);
      resumes.forEach((resume) => resume());
      for (const c of calls) c.onProgress?.({ asking: false });
    }
  }

  /** `notifications/elicitation/complete`: tell the person, and let whatever waits on it go on. */
  onCompletion(elicitationId: string): void {
    const pending = this.awaitingCompletion.get(elicitationId);
    if (!pending) {
      this.deps.log.info(`ignored a completion notification for an elicitation this client does not know: ${elicitationId}`);
      return;
    }
    this.awaitingCompletion.delete(elicitationId);
    this.deps.log.info(`URL elicitation ${elicitationId} completed`);
    this.deps.urlFlow.completed(this.deps.server, pending.message);
    pending.done();
  }

  /** Remembers an accepted URL elicitation; resolves when the server reports it complete. */
  completion(elicitationId: string, message: string): Promise<void> {
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

  /** How many completions are awaited (for tests). */
  get awaitedCompletions(): number {
    return this.awaitingCompletion.size;
  }

  /** Forgets every awaited completion (the server stopped: none will come). */
  clear(): void {
    this.awaitingCompletion.clear();
  }

  /** Waits until `completed` settles or the person says they have finished in the browser; a CallError when they cancel. */
  async waitForBrowser(call: InFlightCall, url: string, signal: AbortSignal, completed?: Promise<unknown>): Promise<void> {
    const stop = new AbortController();
    const finished = this.deps.urlFlow.finishedInBrowser(sourceOf(this.deps.server, [call]), url, AbortSignal.any([signal, stop.signal]));
    const outcome = await Promise.race([
      ...(completed ? [completed.then(() => 'completed' as const)] : []),
      finished.then((done) => (done ? ('finished' as const) : ('cancelled' as const))),
    ]);
    stop.abort();
    if (outcome === 'cancelled') throw new CallError(signal.aborted ? abortMessage(signal) : `You cancelled ${call.name} while it waited for the browser`);
  }
}
