/**
 * The tests' own raw client of an Agent Host Protocol server (VS Code 1.139.1's agent host,
 * test/support/agent-host.ts, or a fixture host): JSON-RPC 2.0, one message per WebSocket
 * text frame, over the `ws` package (Node 20 has no global WebSocket). Test support, typed
 * only as far as the tests read; every frame in and out is kept in `trace`.
 *
 *   const c = await AhpTestClient.connect(url);            // initialize 0.9.0, root subscribed
 *   await c.allowSignedOut();                              // root/configChanged, echoed back
 *   await c.waitForClaude();                               // the Claude agent with its models
 *   const { session, chat } = await c.createClaudeSession(folder);   // both subscribed
 *   const turnId = c.startTurn(chat, 'ask me');            // chat/turnStarted
 *   const asked = await c.waitForAction(chat, 'chat/inputRequested');
 *   c.answerDraft(chat, requestId, questionId, answer);    // chat/inputAnswerChanged
 *   c.completeInput(chat, requestId, 'accept', answers);   // chat/inputCompleted
 *   c.confirmTool(chat, turnId, toolCallId, true);         // chat/toolCallConfirmed
 *   c.cancelTurn(chat, turnId);                            // chat/turnCancelled
 *   const end = await c.waitForTurnEnd(chat, turnId);      // its end action, text and error
 *   const text = await c.waitForTurnComplete(chat, turnId); // its text, or throws why not
 *   await c.close();
 *
 * Requests the server sends (file access, trust) are answered MethodNotFound. Waits scan
 * every action received so far, so an action that came before the wait is found too.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';

export const AHP_VERSION = '0.9.0';
export const ROOT = 'ahp-root://';
/** The model a turn names when the test gives none (the fake answers whatever is named). */
export const DEFAULT_CLAUDE_MODEL = '@provider=anthropic:sonnet';

export interface Action {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** What the server pushes for each action (`action` notification params). */
export interface ActionEnvelope {
  readonly channel: string;
  readonly action: Action;
  readonly serverSeq: number;
  /** Present on a client's action echoed back: whose, and its clientSeq. */
  readonly origin?: { readonly clientId: string; readonly clientSeq: number };
  readonly rejectionReason?: string;
}

export interface TraceEntry {
  /** Milliseconds since the connection opened. */
  readonly at: number;
  readonly direction: 'in' | 'out';
  readonly message: unknown;
}

export type InputAnswerValue =
  | { kind: 'text'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'selected'; value: string; freeformValues?: string[] }
  | { kind: 'selected-many'; value: string[]; freeformValues?: string[] };

export type InputAnswer = { state: 'draft' | 'submitted'; value: InputAnswerValue } | { state: 'skipped'; freeformValues?: string[] };

export interface InputQuestion {
  readonly id: string;
  readonly kind: string;
  readonly title?: string;
  readonly message?: string;
  readonly options?: ReadonlyArray<{ readonly id: string; readonly label: string; readonly description?: string }>;
  readonly allowFreeformInput?: boolean;
}

export interface InputRequest {
  readonly id: string;
  readonly message?: string;
  readonly questions?: readonly InputQuestion[];
  readonly answers?: Record<string, InputAnswer>;
  readonly _meta?: Record<string, unknown>;
}

export interface TurnEnd {
  /** chat/turnComplete, chat/turnCancelled or chat/error. */
  readonly type: string;
  readonly envelope: ActionEnvelope;
  /** The turn's markdown, its parts joined in order. */
  readonly text: string;
  /** chat/error's message. */
  readonly error?: string;
}

/** What to do when Claude Code refuses root (IS_SANDBOX=1, which test/support/agent-host.ts sets, lifts it in 2.1). */
const ROOT_REFUSAL = /root\/sudo/;
const ROOT_HINT =
  'Claude Code refused to run as root although the agent host passes it IS_SANDBOX=1: run the tests as an ordinary user (for instance `useradd -m tester`, give it the checkout and ~/.cache/elicitation-host, and `su tester -c "npx mocha ..."`).';

interface RpcMessage {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A request's JSON-RPC error (its code in `code`). */
export class AhpRequestError extends Error {
  constructor(readonly method: string, readonly code: number, message: string) {
    super(`${method} failed (${code}): ${message}`);
  }
}

const TURN_ENDS = new Set(['chat/turnComplete', 'chat/turnCancelled', 'chat/error']);
const DEFAULT_WAIT_MS = 30_000;

export interface ConnectOptions {
  readonly clientId?: string;
  /** clientInfo.name; the version is the test's. */
  readonly name?: string;
  readonly protocolVersions?: readonly string[];
}

export class AhpTestClient {
  readonly trace: TraceEntry[] = [];
  /** Every action received, in order. */
  readonly actions: ActionEnvelope[] = [];
  /** Every other notification (root/sessionAdded, root/sessionSummaryChanged, ...). */
  readonly notifications: Array<{ readonly method: string; readonly params: Record<string, unknown> }> = [];
  /** The initialize result, or the reconnect result for a client made by reconnect(). */
  result: Record<string, unknown> = {};
  /** The highest serverSeq seen (for reconnect). */
  lastServerSeq = 0;
  private readonly opened = Date.now();
  private nextId = 0;
  private clientSeq = 0;
  private readonly pending = new Map<number, { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly wakers = new Set<() => void>();
  private closedBecause: Error | undefined;

  private constructor(
    private readonly socket: WebSocket,
    readonly clientId: string,
  ) {
    socket.on('message', (data) => this.receive(String(data)));
    socket.on('close', (code, reason) => this.closed(new Error(`the AHP connection closed (${code}${reason.length ? ` ${String(reason)}` : ''})`)));
    socket.on('error', (error) => this.closed(error));
  }

  /** Opens a connection and initializes it, subscribed to the root. */
  static async connect(url: string, options: ConnectOptions = {}): Promise<AhpTestClient> {
    const client = new AhpTestClient(await open(url), options.clientId ?? `test-${randomUUID()}`);
    client.result = await client.request('initialize', {
      channel: ROOT,
      protocolVersions: options.protocolVersions ?? [AHP_VERSION],
      clientId: client.clientId,
      clientInfo: { name: options.name ?? 'elicitation-host-tests', version: '0' },
      initialSubscriptions: [ROOT],
    });
    return client;
  }

  /**
   * Opens a connection that resumes a closed client's (`reconnect` instead of `initialize`):
   * its clientId, the last serverSeq it saw, and its clientSeq continued. `result` is
   * {type:"replay", actions, missing} or {type:"snapshot", snapshots}.
   */
  static async reconnect(url: string, previous: AhpTestClient, subscriptions: readonly string[]): Promise<AhpTestClient> {
    const client = new AhpTestClient(await open(url), previous.clientId);
    client.clientSeq = previous.clientSeq;
    client.lastServerSeq = previous.lastServerSeq;
    client.result = await client.request('reconnect', { clientId: previous.clientId, lastSeenServerSeq: previous.lastServerSeq, subscriptions });
    return client;
  }

  request<T = Record<string, unknown>>(method: string, params: Record<string, unknown>): Promise<T> {
    if (this.closedBecause) return Promise.reject(this.closedBecause);
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** dispatchAction (a notification); returns its clientSeq. */
  dispatch(channel: string, action: Action): number {
    const clientSeq = ++this.clientSeq;
    this.send({ jsonrpc: '2.0', method: 'dispatchAction', params: { channel, clientSeq, action } });
    return clientSeq;
  }

  /** subscribe: the channel's snapshot ({resource, state, fromSeq}). */
  async subscribe(channel: string): Promise<{ resource: string; state: Record<string, unknown>; fromSeq: number }> {
    const { snapshot } = await this.request<{ snapshot: { resource: string; state: Record<string, unknown>; fromSeq: number } }>('subscribe', { channel });
    return snapshot;
  }

  /**
   * The first action received on `channel` of `type` that `matches`, waiting for it if need
   * be; fails at once when a chat/error arrives on that channel meanwhile (a turn that failed).
   */
  waitForAction(channel: string, type: string, matches: (action: Action, envelope: ActionEnvelope) => boolean = () => true, timeoutMs = DEFAULT_WAIT_MS): Promise<ActionEnvelope> {
    const since = this.actions.length;
    const failed = (): string | undefined => {
      const error = type === 'chat/error' ? undefined : this.actions.slice(since).find((e) => e.channel === channel && e.action.type === 'chat/error');
      return error && `turn ${String(error.action.turnId)} failed: ${turnError(error.action) ?? JSON.stringify(error.action)}`;
    };
    return this.waitFor(`${type} on ${channel}`, () => this.actions.find((e) => e.channel === channel && e.action.type === type && matches(e.action, e)), timeoutMs, failed);
  }

  /** Waits until `probe` finds something in what was received; fails with `what` and the last actions, or when `failed` says why. */
  waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = DEFAULT_WAIT_MS, failed: () => string | undefined = () => undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = (): boolean => {
        const found = probe();
        if (found !== undefined) {
          done();
          resolve(found);
          return true;
        }
        const failure = this.closedBecause?.message ?? failed();
        if (failure !== undefined) {
          done();
          reject(new Error(`${explain(failure)} (while waiting for ${what})`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        const last = this.actions.slice(-15).map((e) => `${e.serverSeq} ${e.channel} ${e.action.type}`);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the last actions received:\n${last.join('\n')}`));
      }, timeoutMs);
      const waker = (): void => void check();
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(waker);
      };
      if (!check()) this.wakers.add(waker);
    });
  }

  /** Dispatches root/configChanged {allowSignedOutWhenUsable: true} (Claude without a Copilot sign-in) and waits for its echo. */
  async allowSignedOut(): Promise<void> {
    const clientSeq = this.dispatch(ROOT, { type: 'root/configChanged', config: { allowSignedOutWhenUsable: true } });
    await this.waitForAction(ROOT, 'root/configChanged', (_, e) => e.origin?.clientId === this.clientId && e.origin.clientSeq === clientSeq);
  }

  /** The Claude agent's model ids, once the root state (initialize's snapshot, then root/agentsChanged) lists some. */
  waitForClaude(timeoutMs = DEFAULT_WAIT_MS): Promise<string[]> {
    type Agent = { provider: string; models: Array<{ id: string }> };
    const claudeModels = (agents: Agent[] | undefined): string[] | undefined => {
      const models = agents?.find((a) => a.provider === 'claude')?.models.map((m) => m.id);
      return models && models.length > 0 ? models : undefined;
    };
    return this.waitFor(
      'the Claude agent and its models in the root state',
      () => {
        const changed = this.actions.filter((e) => e.channel === ROOT && e.action.type === 'root/agentsChanged').at(-1);
        if (changed) return claudeModels(changed.action.agents as Agent[]);
        const snapshots = this.result.snapshots as Array<{ resource: string; state: { agents?: Agent[] } }> | undefined;
        return claudeModels(snapshots?.find((s) => s.resource === ROOT)?.state.agents);
      },
      timeoutMs,
    );
  }

  /**
   * createSession for the Claude agent in `folder` (permission mode `default`: Bash asks),
   * then subscribes to the session and its default chat.
   */
  async createClaudeSession(folder: string, config: Record<string, unknown> = {}): Promise<{ session: string; chat: string; sessionState: Record<string, unknown> }> {
    const session = `claude:/${randomUUID()}`;
    await this.request('createSession', { channel: session, provider: 'claude', workingDirectories: [pathToFileURL(folder).href], ...(Object.keys(config).length > 0 && { config }) });
    const snapshot = await this.subscribe(session);
    const chat = snapshot.state.defaultChat as string;
    await this.subscribe(chat);
    return { session, chat, sessionState: snapshot.state };
  }

  /** chat/turnStarted with the person's text; returns the new turn's id. */
  startTurn(chat: string, text: string, model = DEFAULT_CLAUDE_MODEL): string {
    const turnId = randomUUID();
    this.dispatch(chat, { type: 'chat/turnStarted', turnId, startedAt: new Date().toISOString(), message: { text, origin: { kind: 'user' }, model: { id: model } } });
    return turnId;
  }

  /** The open input request of a chat (chat/inputRequested). */
  async waitForInputRequest(chat: string, timeoutMs = DEFAULT_WAIT_MS): Promise<InputRequest> {
    const envelope = await this.waitForAction(chat, 'chat/inputRequested', () => true, timeoutMs);
    return envelope.action.request as InputRequest;
  }

  /** chat/inputAnswerChanged: one question's draft, submitted or skipped answer (undefined removes it). */
  answerDraft(chat: string, requestId: string, questionId: string, answer: InputAnswer | undefined): number {
    return this.dispatch(chat, { type: 'chat/inputAnswerChanged', requestId, questionId, ...(answer !== undefined && { answer }) });
  }

  /** chat/inputCompleted, with the answers merged over the drafts. */
  completeInput(chat: string, requestId: string, response: 'accept' | 'decline' | 'cancel', answers?: Record<string, InputAnswer>): number {
    return this.dispatch(chat, { type: 'chat/inputCompleted', requestId, response, ...(answers && { answers }) });
  }

  /** chat/toolCallConfirmed as the workbench sends it: approved by a user action, or denied. */
  confirmTool(chat: string, turnId: string, toolCallId: string, approved: boolean): number {
    return this.dispatch(chat, approved ? { type: 'chat/toolCallConfirmed', turnId, toolCallId, approved: true, confirmed: 'user-action' } : { type: 'chat/toolCallConfirmed', turnId, toolCallId, approved: false, reason: 'denied' });
  }

  /** chat/turnCancelled, as the workbench's stop button sends it. */
  cancelTurn(chat: string, turnId: string): number {
    return this.dispatch(chat, { type: 'chat/turnCancelled', turnId, duration: 0 });
  }

  /** The turn's end (complete, cancelled or error) and its markdown text. */
  async waitForTurnEnd(chat: string, turnId: string, timeoutMs = DEFAULT_WAIT_MS): Promise<TurnEnd> {
    const envelope = await this.waitFor(`the end of turn ${turnId} on ${chat}`, () => this.actions.find((e) => e.channel === chat && TURN_ENDS.has(e.action.type) && e.action.turnId === turnId), timeoutMs);
    const error = turnError(envelope.action);
    return { type: envelope.action.type, envelope, text: this.turnText(chat, turnId), ...(error !== undefined && { error }) };
  }

  /** The turn's text once it completed; throws with the reason when it was cancelled or failed. */
  async waitForTurnComplete(chat: string, turnId: string, timeoutMs = DEFAULT_WAIT_MS): Promise<string> {
    const end = await this.waitForTurnEnd(chat, turnId, timeoutMs);
    if (end.type === 'chat/turnComplete') return end.text;
    throw new Error(explain(`turn ${turnId} ended with ${end.type}${end.error ? `: ${end.error}` : ''}`));
  }

  /** A turn's markdown as received so far: chat/responsePart markdown parts plus their chat/delta, in order. */
  turnText(chat: string, turnId: string): string {
    const parts = new Map<string, string>();
    for (const { channel, action } of this.actions) {
      if (channel !== chat || action.turnId !== turnId) continue;
      const part = action.part as { kind?: string; id?: string; content?: string } | undefined;
      if (action.type === 'chat/responsePart' && part?.kind === 'markdown' && part.id) parts.set(part.id, part.content ?? '');
      if (action.type === 'chat/delta' && parts.has(action.partId as string)) parts.set(action.partId as string, parts.get(action.partId as string) + String(action.content));
    }
    return [...parts.values()].join('');
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }

  private send(message: RpcMessage): void {
    this.trace.push({ at: Date.now() - this.opened, direction: 'out', message });
    this.socket.send(JSON.stringify(message));
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as RpcMessage;
    this.trace.push({ at: Date.now() - this.opened, direction: 'in', message });
    if (message.method === undefined && typeof message.id === 'number') {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new AhpRequestError(waiting.method, message.error.code, message.error.message));
      else waiting?.resolve(message.result);
    } else if (message.method !== undefined && message.id !== undefined) {
      // A request of the server's own (files, trust): not served here.
      this.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `${message.method} is not served by this test client` } });
    } else if (message.method === 'action') {
      const envelope = message.params as unknown as ActionEnvelope;
      this.lastServerSeq = Math.max(this.lastServerSeq, envelope.serverSeq);
      this.actions.push(envelope);
    } else if (message.method !== undefined) {
      this.notifications.push({ method: message.method, params: message.params ?? {} });
    }
    for (const wake of [...this.wakers]) wake();
  }

  private closed(error: Error): void {
    this.closedBecause ??= error;
    for (const { reject } of this.pending.values()) reject(this.closedBecause);
    this.pending.clear();
    for (const wake of [...this.wakers]) wake();
  }
}

function turnError(action: Action): string | undefined {
  return (action.part as { error?: { message?: string } } | undefined)?.error?.message;
}

/** A failure, with what to do about it when it is Claude Code refusing root. */
function explain(failure: string): string {
  return ROOT_REFUSAL.test(failure) ? `${failure}\n${ROOT_HINT}` : failure;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
    socket.once('unexpected-response', (_, response) => reject(new Error(`the AHP server refused the connection: HTTP ${response.statusCode} (a wrong connection token gets 403)`)));
  });
}
