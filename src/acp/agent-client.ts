/**
 * One ACP client per agent process: starts it, initializes (what we advertise, and why),
 * opens sessions (with the person's MCP servers, where the host shares them: over HTTP to an
 * agent that declares `mcpCapabilities.http`, else over stdio), and answers what the agent asks of its client: permissions and
 * questions through the broker, files through the host's port within the session's
 * working directories, `session/update` to the session it names.
 *
 * Advertised: `fs.readTextFile` and `fs.writeTextFile` (the host's files: in VS Code an
 * open editor's unsaved text, a write shown in an editor; never in an untrusted
 * workspace, only inside the session's directories), `elicitation` form and url (form only
 * when URL mode is turned off), boolean config options. Not advertised: `terminal`. With
 * it we would run the agent's commands ourselves, in our own process, with a terminal UI
 * of ours; without it the agent runs them itself and asks first (`session/request_permission`),
 * which is the question the person sees here.
 *
 * About 430 lines, past the usual 400: the process's lifecycle, its sessions (new, listed,
 * reopened, closed) and the routing of every request the agent makes are one job and read
 * best together; a permission's answer lives in agent-permission.ts, a question's reading in
 * agent-questions.ts, file rules in file-access.ts.
 */
import type { ClientContext, CreateElicitationResponse, SessionUpdate, InitializeRequest, InitializeResponse, NewSessionResponse } from '@agentclientprotocol/sdk';
import { isAbsolute } from 'node:path';
import { setTimeout as setTimeoutPromise } from 'node:timers/promises';
import type { Content } from '../elicitation/model';
import type { RequestSource } from '../elicitation/request';
import { sourceLabel } from '../elicitation/request';
import { isRecord } from '../base/is-record';
import { toRpcError } from '../mcp/errors';
import { endedByThePerson } from '../base/ended-by-person';
import { errorMessage } from '../base/error-message';
import { Listeners } from '../base/listeners';
import { type AcpSdk, loadAcpSdk } from './acp-sdk-loader';
import { AgentProcess, type AgentExit } from './agent-process';
import { answersShown, askAgentQuestion, QuestionParamsError, readAgentQuestion } from './agent-questions';
import { AgentSession } from './agent-session';
import { listPastSessions, noPastSessions, type PastSession, type SessionSupport, sessionSupport } from './past-sessions';
import { checkFileAccess, FileAccessError, type FileTarget, untrustedRefusal } from './file-access';
import { answerPermission } from './agent-permission';
import type { AgentDefinition, AgentClientPorts, SharedServers } from './ports';
import { askSessionConfig, sessionConfigSchema } from './session-config';

/** What the agent said of itself at `initialize` (its own words: never shown as who asks). */
export interface AgentInfo {
  readonly protocolVersion: number;
  readonly agentInfo?: { readonly name: string; readonly title?: string; readonly version: string };
  readonly capabilities: NonNullable<InitializeResponse['agentCapabilities']>;
  readonly authMethods: NonNullable<InitializeResponse['authMethods']>;
  /** The unmerged Session Input Options proposal's form for `session/new` (session-config.ts). */
  readonly sessionConfigSchema?: Record<string, unknown>;
}

export type AgentEvent =
  | { readonly type: 'exit'; readonly exit: AgentExit }
  /** A question before any session (scoped by `requestId`) was asked and answered. */
  | { readonly type: 'question'; readonly asker: string; readonly message: string; readonly action: string }
  /** The agent reported a URL-mode question finished (`elicitation/complete`). */
  | { readonly type: 'link-completed'; readonly elicitationId: string };

export interface NewSessionOptions {
  /** The working directory (absolute): the agent reads and writes only inside it and `additionalDirectories`. */
  readonly cwd: string;
  readonly additionalDirectories?: readonly string[];
  /** A mode to switch to once the session exists (an unknown one is an error naming those offered). */
  readonly mode?: string;
  /** Values for the proposal's session form, sent as `config` (only to an agent that advertised one). */
  readonly config?: Content;
}

/** A past session to bring back (`session/load`, else `session/resume`). */
export interface ReopenOptions {
  readonly sessionId: string;
  /** Its working directory (absolute), where it was opened. */
  readonly cwd: string;
  /** Its title as the list or this window last knew it, until the agent says one. */
  readonly title?: string;
  /**
   * Called with the session before the agent is asked for it: `session/load` replays the
   * conversation as updates before it answers, and whoever shows them must be listening.
   */
  readonly onSession?: (session: AgentSession) => void;
}

const PRE_SESSION = 'before the session starts';
/** What each update we read must carry (the SDK's schema would have said so; we read updates ourselves). */
const REQUIRED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  agent_message_chunk: ['content'],
  user_message_chunk: ['content'],
  agent_thought_chunk: ['content'],
  tool_call: ['toolCallId', 'title'],
  tool_call_update: ['toolCallId'],
  plan: ['entries'],
  available_commands_update: ['availableCommands'],
  current_mode_update: ['currentModeId'],
  config_option_update: ['configOptions'],
};
/** How long a failed start waits to learn how the process ended. */
const EXIT_GRACE_MS = 2000;
/** Our requests a `requestId` question may belong to that come before a session exists. */
const PRE_SESSION_METHODS = new Set(['initialize', 'authenticate', 'session/new', 'session/load', 'session/resume']);
/** Sessions not yet known whose updates are kept: a few in flight at most; more is an agent misbehaving. */
const EARLY_SESSIONS_KEPT = 8;
/** Closed sessions remembered, to drop what the agent still sends for them. */
const CLOSED_SESSIONS_KEPT = 64;

export class AgentClient {
  readonly events = new Listeners<AgentEvent>();
  private readonly sessions = new Map<string, AgentSession>();
  /** Updates for a session whose `session/new` answer is still on its way. */
  private readonly early = new Map<string, Parameters<AgentSession['receive']>[0][]>();
  /** Sessions closed here: what the agent still sends for them is dropped, not kept as early. */
  private readonly closed = new Set<string>();
  private info: AgentInfo | undefined;
  private agent!: ClientContext;
  private connection!: { close(error?: unknown): void; readonly signal: AbortSignal };

  private constructor(
    readonly definition: AgentDefinition,
    private readonly host: AgentClientPorts,
    private readonly sdk: AcpSdk,
    private readonly process: AgentProcess,
  ) {}

  /** Starts the agent and initializes it; fails with the agent's own words when it cannot. */
  static async start(definition: AgentDefinition, host: AgentClientPorts): Promise<AgentClient> {
    const sdk = loadAcpSdk();
    const client = new AgentClient(definition, host, sdk, new AgentProcess(sdk, definition, host));
    client.connect();
    void client.process.exited.then((exit) => client.onExit(exit));
    try {
      await client.initialize();
    } catch (error) {
      await client.process.stop();
      throw error;
    }
    return client;
  }

  get name(): string {
    return this.definition.name;
  }

  get agentInfo(): AgentInfo {
    if (!this.info) throw new Error(`${this.name} is not initialized`);
    return this.info;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get exited(): Promise<AgentExit> {
    return this.process.exited;
  }

  session(id: string): AgentSession | undefined {
    return this.sessions.get(id);
  }

  /** Asks the proposal's session form (session-config.ts), if the agent sent one; undefined otherwise or when not answered. */
  async askSessionConfig(signal: AbortSignal): Promise<Content | undefined> {
    const schema = this.info?.sessionConfigSchema;
    return schema && askSessionConfig(this.host.broker, this.name, schema, signal, this.host.settings().applyDefaults);
  }

  async newSession(options: NewSessionOptions): Promise<AgentSession> {
    const directories = [options.cwd, ...(options.additionalDirectories ?? [])];
    const relative = directories.find((d) => !isAbsolute(d));
    if (relative !== undefined) throw new Error(`a session's directories are absolute paths, not ${relative}`);
    const extra = options.additionalDirectories?.length && this.info?.capabilities.sessionCapabilities?.additionalDirectories ? { additionalDirectories: [...options.additionalDirectories] } : {};
    // `config` is the unmerged proposal's (session-config.ts): sent only to an agent that asked for it.
    const config = options.config && this.info?.sessionConfigSchema ? { config: options.config } : {};
    const made: { session?: AgentSession } = {};
    const shared = await this.shareServers(made);
    let response: NewSessionResponse;
    try {
      response = await this.agent.request('session/new', { cwd: options.cwd, mcpServers: [...(shared?.entries ?? [])], ...extra, ...config });
    } catch (error) {
      shared?.revoke();
      throw error;
    }
    const session = new AgentSession(this.agent, this.name, response.sessionId, extra.additionalDirectories ? directories : [options.cwd], response, givenOf(shared));
    made.session = session;
    if (shared) session.endSignal.addEventListener('abort', () => shared.revoke(), { once: true });
    this.sessions.set(session.id, session);
    for (const update of this.early.get(session.id) ?? []) session.receive(update);
    this.early.delete(session.id);
    if (options.mode !== undefined && options.mode !== session.modes?.current.id) await session.setMode(options.mode);
    return session;
  }

  /**
   * Ends one session (Close Session): its open questions close as the person's Stop closes
   * them, the agent is told (`session/close` where it declares it, else `session/cancel` for a
   * running turn), and nothing more of the session is kept; its later updates are dropped.
   */
  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    this.closed.add(sessionId);
    if (this.closed.size > CLOSED_SESSIONS_KEPT) this.closed.delete(this.closed.values().next().value!);
    const running = session.running;
    session.end(endedByThePerson('the session was closed'));
    if (this.info?.capabilities.sessionCapabilities?.close) await this.agent.request('session/close', { sessionId });
    else if (running) await this.agent.notify('session/cancel', { sessionId });
  }

  /** What the agent declares it can do with its past sessions. */
  get sessionSupport(): SessionSupport {
    return sessionSupport(this.agentInfo.capabilities);
  }

  /** The agent's past sessions in `cwd` (`session/list`), newest first; an error when it declares no list. */
  async listSessions(cwd: string): Promise<PastSession[]> {
    if (!this.sessionSupport.list) throw new Error(`${this.name} does not list its past sessions: it declares no session/list`);
    return listPastSessions(this.agent, this.name, cwd);
  }

  /**
   * A past session again: `session/load` where the agent declares it (the conversation is
   * replayed into the session before the answer), else `session/resume` (it goes on without
   * the conversation). Returns how it came back.
   */
  async reopenSession(options: ReopenOptions): Promise<{ readonly session: AgentSession; readonly replayed: boolean }> {
    if (!isAbsolute(options.cwd)) throw new Error(`a session's directories are absolute paths, not ${options.cwd}`);
    const live = this.sessions.get(options.sessionId);
    if (live) return { session: live, replayed: false };
    const support = this.sessionSupport;
    if (!support.load && !support.resume) throw new Error(`${noPastSessions(this.name)}, so it cannot reopen one`);
    // A reopened session gets the person's servers as a new one does, with a token of its own.
    const made: { session?: AgentSession } = {};
    const shared = await this.shareServers(made);
    const session = new AgentSession(this.agent, this.name, options.sessionId, [options.cwd], undefined, givenOf(shared), options.title);
    made.session = session;
    if (shared) session.endSignal.addEventListener('abort', () => shared.revoke(), { once: true });
    this.sessions.set(session.id, session);
    this.early.delete(session.id);
    // Closed here before and opened again: its updates count again.
    this.closed.delete(session.id);
    options.onSession?.(session);
    try {
      const params = { sessionId: options.sessionId, cwd: options.cwd, mcpServers: [...(shared?.entries ?? [])] };
      session.adopt(support.load ? await this.agent.request('session/load', params) : await this.agent.request('session/resume', params));
    } catch (error) {
      this.sessions.delete(session.id);
      session.end(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    return { session, replayed: support.load };
  }

  /** Closes the connection and ends the process; every open question closes. */
  async close(): Promise<AgentExit> {
    const reason = new Error(`${this.name} was stopped`);
    for (const session of this.sessions.values()) session.end(reason);
    this.connection.close(reason);
    return this.process.stop();
  }

  private connect(): void {
    // Updates are taken off the stream in order (agent-process.ts); a malformed one is logged and dropped.
    this.process.onSessionUpdate = (params) => {
      try {
        this.onUpdate(params);
      } catch (error) {
        this.host.log.warn(`${this.name} sent a session update this client cannot read: ${errorMessage(error)}`);
      }
    };
    const app = this.sdk
      .client({ name: this.host.clientInfo.name })
      .onRequest('session/request_permission', async ({ params, signal }) => answerPermission(this.name, this.host, this.knownSession(params.sessionId), params, signal))
      // Read raw: the SDK's own parsing would drop what our schema check must see (agent-questions.ts).
      .onRequest<unknown, CreateElicitationResponse>('elicitation/create', (params) => params, ({ params, signal }) => this.question(params, signal))
      .onRequest('fs/read_text_file', ({ params }) =>
        this.fileRequest(params.sessionId, params.path, 'read', async (target) => ({ content: await this.host.files.read(target, { line: params.line, limit: params.limit }) })),
      )
      .onRequest('fs/write_text_file', ({ params }) =>
        this.fileRequest(params.sessionId, params.path, 'write', async (target) => {
          await this.host.files.write(target, params.content);
          return {};
        }),
      )
      .onNotification('elicitation/complete', ({ params }) => {
        this.host.log.info(`${this.name}: the link question ${params.elicitationId} is finished`);
        this.events.fire({ type: 'link-completed', elicitationId: params.elicitationId });
      });
    const connection = app.connect(this.process.stream);
    this.connection = connection;
    this.agent = connection.agent;
  }

  private onUpdate(raw: unknown): void {
    if (!isRecord(raw) || typeof raw.sessionId !== 'string' || !isRecord(raw.update) || typeof raw.update.sessionUpdate !== 'string') {
      throw new Error('it needs a sessionId and an update with a sessionUpdate');
    }
    const kind = raw.update.sessionUpdate;
    const needs = REQUIRED_FIELDS[kind];
    const missing = needs?.find((field) => (raw.update as Record<string, unknown>)[field] === undefined);
    if (missing) throw new Error(`a ${kind} update needs ${missing}`);
    const update = raw.update as unknown as SessionUpdate;
    const session = this.sessions.get(raw.sessionId);
    if (session) session.receive(update);
    else if (!this.closed.has(raw.sessionId)) {
      this.early.set(raw.sessionId, [...(this.early.get(raw.sessionId) ?? []), update].slice(-50));
      if (this.early.size > EARLY_SESSIONS_KEPT) this.early.delete(this.early.keys().next().value!);
    }
  }

  private async initialize(): Promise<void> {
    const { urlMode } = this.host.settings();
    const exited = this.process.exited.then((exit) => {
      throw new Error(`${this.name} ended before it answered initialize: ${describeExit(exit)}`);
    });
    const request: InitializeRequest = {
      protocolVersion: this.sdk.PROTOCOL_VERSION,
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: true },
        terminal: false,
        elicitation: urlMode ? { form: {}, url: {} } : { form: {} },
        session: { configOptions: { boolean: {} } },
      },
      clientInfo: this.host.clientInfo,
    };
    let response: InitializeResponse;
    try {
      response = await Promise.race([this.agent.request('initialize', request), exited]);
    } catch (error) {
      // The connection closes with the process: say how the process ended, not that the connection did.
      // Its output ends a moment before its exit is known: wait for that a little.
      const grace = setTimeoutPromise(EXIT_GRACE_MS, undefined, { ref: false });
      const exit = await Promise.race([this.process.exited, grace]);
      if (exit) throw new Error(`${this.name} ended before it answered initialize: ${describeExit(exit)}`, { cause: error });
      throw error;
    }
    if (response.protocolVersion !== this.sdk.PROTOCOL_VERSION) {
      throw new Error(`${this.name} speaks ACP version ${response.protocolVersion}; this client speaks version ${this.sdk.PROTOCOL_VERSION}`);
    }
    const schema = sessionConfigSchema(response);
    this.info = {
      protocolVersion: response.protocolVersion,
      ...(response.agentInfo && { agentInfo: { name: response.agentInfo.name, version: response.agentInfo.version, ...(typeof response.agentInfo.title === 'string' && { title: response.agentInfo.title }) } }),
      capabilities: response.agentCapabilities ?? {},
      authMethods: response.authMethods ?? [],
      ...(schema && { sessionConfigSchema: schema }),
    };
  }

  /** The person's servers, with a token that names this session; the title is read when a question comes. */
  private async shareServers(made: { readonly session?: AgentSession }): Promise<SharedServers | undefined> {
    const http = this.info?.capabilities.mcpCapabilities?.http === true;
    return this.host.shareServers?.({ agent: this.name, http, session: () => made.session?.label });
  }

  private knownSession(sessionId: string): AgentSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw this.sdk.RequestError.sessionNotFound(sessionId);
    return session;
  }

  /**
   * A file request, by the rules: none in an untrusted workspace (reads too: a repository
   * opened untrusted may hold what its agent must not see), then only inside the session's
   * directories, checked again as the file is opened (file-access.ts, folder-files.ts).
   */
  private async fileRequest<T>(sessionId: string, path: string, what: 'read' | 'write', run: (target: FileTarget) => Promise<T>): Promise<T> {
    const session = this.knownSession(sessionId);
    try {
      if (!this.host.isTrusted()) {
        throw untrustedRefusal(what, path);
      }
      return await run(await checkFileAccess(path, session.directories, what));
    } catch (error) {
      if (error instanceof FileAccessError) {
        this.host.log.warn(`${this.name}: ${error.message}`);
        throw new this.sdk.RequestError(-32602, error.message);
      }
      const code = (error as NodeJS.ErrnoException).code;
      if (what === 'read' && code === 'ENOENT') throw this.sdk.RequestError.resourceNotFound(path);
      // The system's code, not its message: the agent learns what failed, not more of the disk.
      if (typeof code === 'string') throw new this.sdk.RequestError(-32603, `Could not ${what} ${path}: ${code}`);
      throw error;
    }
  }

  private async question(raw: unknown, requestSignal: AbortSignal): Promise<CreateElicitationResponse> {
    let source: RequestSource;
    let signal: AbortSignal;
    let session: AgentSession | undefined;
    try {
      const question = readAgentQuestion(raw);
      if (question.scope.kind === 'session') {
        session = this.knownSession(question.scope.sessionId);
        const toolCall = question.scope.toolCallId !== undefined ? session.updates.toolCall(question.scope.toolCallId) : undefined;
        source = { server: this.name, requester: 'agent', ...(toolCall?.title && { tool: toolCall.title }), session: session.label };
        const turn = session.currentTurn();
        signal = AbortSignal.any([requestSignal, session.endSignal, ...(turn ? [turn.signal] : [])]);
      } else {
        const method = this.process.methodInFlight(question.scope.requestId);
        if (method === undefined) throw new QuestionParamsError(`requestId ${JSON.stringify(question.scope.requestId)} is not a request of this client waiting for its answer`);
        source = { server: this.name, requester: 'agent', tool: PRE_SESSION_METHODS.has(method) ? PRE_SESSION : method };
        signal = AbortSignal.any([requestSignal, this.process.untilAnswered(question.scope.requestId), this.connection.signal]);
      }
      const result = await askAgentQuestion(this.host.broker, question, source, signal, this.host.settings());
      const told = { type: 'question' as const, asker: sourceLabel(source), message: question.params.message, action: result.action };
      if (session) {
        const toolCallId = question.scope.kind === 'session' ? question.scope.toolCallId : undefined;
        session.tell({ ...told, ...(toolCallId !== undefined && { toolCallId }), answers: answersShown(question, result) });
      } else this.events.fire(told);
      return result;
    } catch (error) {
      this.host.log.warn(`${this.name}: a question was refused or failed: ${errorMessage(error)}`);
      if (error instanceof QuestionParamsError) throw new this.sdk.RequestError(-32602, `Invalid elicitation request: ${error.message}`);
      if (error instanceof this.sdk.RequestError) throw error;
      const rpc = toRpcError(error);
      throw new this.sdk.RequestError(rpc.code, rpc.message, rpc.data);
    }
  }

  private onExit(exit: AgentExit): void {
    const reason = new Error(`${this.name} ended: ${describeExit(exit)}`);
    for (const session of this.sessions.values()) session.end(reason);
    this.connection.close(reason);
    this.events.fire({ type: 'exit', exit });
  }
}

/** What the session panel lists as given, and why nothing was when nothing was. */
function givenOf(shared: SharedServers | undefined): AgentSession['servers'] {
  return { given: shared?.given ?? [], ...(shared?.note !== undefined && { note: shared.note }) };
}

/** How a process ended, in words, with the last thing it wrote to stderr. */
export function describeExit(exit: AgentExit): string {
  const how = exit.error ?? (exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`);
  const said = exit.stderrTail.at(-1);
  return said ? `${how} (${said})` : how;
}

