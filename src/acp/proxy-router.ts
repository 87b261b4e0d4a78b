/**
 * The ACP proxy's message routing (`elicitation-host acp-proxy`): an agent to its client
 * and a client to the real agent, one newline-delimited JSON-RPC line at a time. Every line
 * passes through as it came, byte for byte, except:
 *
 * - the client's `initialize`, when its `clientCapabilities.elicitation` offers no mode
 *   (absent, or `{}`, which in ACP means none): it goes on advertising form and url, and
 * - then the agent's `elicitation/create` requests, which we answer ourselves (`ask`) and
 *   the client never sees, and its `elicitation/complete` notifications, which would mean
 *   nothing to it.
 *
 * Ids: each side numbers its own requests, so the same id may be in flight both ways at
 * once. Each direction has its own table: a response is matched only against requests that
 * went the other way through us, and one that answers nothing we forwarded (a client
 * answering the agent's question that we took, a stray) is dropped and logged, never
 * passed on to be taken for the answer of something else. We send no request of our own.
 *
 * A question we ask closes (answered `cancel`) when the client cancels its session's turn
 * (`session/cancel`), when that turn ends (the agent answered its `session/prompt`), when
 * the request a pre-session question belongs to is answered, or when either side goes away.
 */
import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import type { FormParams, UrlParams } from '../elicitation/broker';
import { isRecord } from '../base/is-record';
import { errorMessage } from '../base/error-message';
import { QuestionParamsError, readAgentQuestion } from './agent-questions';

type Id = string | number;

/** A question of the agent's, as the proxy asks it. */
export interface ProxyQuestion {
  readonly params: FormParams | UrlParams;
  /** The tool call it belongs to, by its title, when the session's updates named it. */
  readonly tool?: string;
  /** The session, by its title or first prompt. */
  readonly session?: string;
}

/** A question that could not be asked as sent: the agent gets -32602 with this message. */
export class ProxyQuestionRefused extends Error {}

export interface ProxyRouterOptions {
  toAgent(line: string): void;
  toClient(line: string): void;
  /** Asks the person; resolves with `cancel` (or rejects) once `signal` fires. */
  ask(question: ProxyQuestion, signal: AbortSignal): Promise<CreateElicitationResponse>;
  log(message: string): void;
}

/** What we advertise to the agent for a client that offers no elicitation. */
export const PROXY_ELICITATION = { form: {}, url: {} } as const;

/** Tool call titles and session labels kept: far more than a session has open at once. */
const KEPT = 500;
const LABEL_CHARS = 40;

interface ClientRequest {
  readonly method: string;
  readonly sessionId?: string;
  /** Fires when the agent answers it: a pre-session question scoped to it closes. */
  readonly answered: AbortController;
}

interface OpenQuestion {
  readonly sessionId?: string;
  readonly controller: AbortController;
}

type Message = Record<string, unknown>;

function parse(line: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isId(value: unknown): value is Id {
  return typeof value === 'string' || typeof value === 'number';
}

/** `{form}` or `{url}` offered (an object, not null): ACP's empty `{}` offers no mode. */
export function offersElicitation(capabilities: unknown): boolean {
  const elicitation = isRecord(capabilities) ? capabilities.elicitation : undefined;
  return isRecord(elicitation) && (isRecord(elicitation.form) || isRecord(elicitation.url));
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > KEPT) map.delete(map.keys().next().value!);
}

function label(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > LABEL_CHARS ? `${one.slice(0, LABEL_CHARS - 1)}…` : one;
}

export class ProxyRouter {
  /** Undefined until the client's `initialize`: then whether we answer the agent's questions. */
  private answering: boolean | undefined;
  /** The client's requests to the agent, by the client's ids. */
  private readonly clientRequests = new Map<Id, ClientRequest>();
  /** The agent's requests to the client, by the agent's ids. */
  private readonly agentRequests = new Set<Id>();
  /** The agent's questions we are asking, by the agent's ids. */
  private readonly open = new Map<Id, OpenQuestion>();
  private readonly toolTitles = new Map<string, string>();
  private readonly sessionLabels = new Map<string, string>();
  private closed = false;

  constructor(private readonly options: ProxyRouterOptions) {}

  /** Whether we answer the agent's questions (known once the client has initialized). */
  get answersQuestions(): boolean {
    return this.answering === true;
  }

  /** A line from the client (our stdin). */
  fromClient(line: string): void {
    const message = parse(line);
    if (!message || typeof message.method !== 'string') {
      if (message && isId(message.id) && !('method' in message)) return this.clientResponse(message.id, line);
      // Not JSON-RPC we can read (a batch, garbage): the agent says what it makes of it.
      this.options.toAgent(line);
      return;
    }
    const params = isRecord(message.params) ? message.params : undefined;
    if (isId(message.id)) {
      const sessionId = typeof params?.sessionId === 'string' ? params.sessionId : undefined;
      if (this.clientRequests.has(message.id)) this.options.log(`the client reused id ${JSON.stringify(message.id)} while its request is in flight`);
      this.clientRequests.set(message.id, { method: message.method, ...(sessionId !== undefined && { sessionId }), answered: new AbortController() });
      if (message.method === 'session/prompt' && sessionId !== undefined && !this.sessionLabels.has(sessionId)) this.labelFromPrompt(sessionId, params?.prompt);
      if (message.method === 'initialize') return this.initialize(message, params, line);
    } else if (message.method === 'session/cancel' && typeof params?.sessionId === 'string') {
      this.closeQuestions((q) => q.sessionId === params.sessionId, 'the client cancelled the turn');
    }
    this.options.toAgent(line);
  }

  /** A line from the agent (its stdout). */
  fromAgent(line: string): void {
    const message = parse(line);
    if (!message || typeof message.method !== 'string') {
      if (message && isId(message.id) && !('method' in message)) return this.agentResponse(message.id, line);
      this.options.toClient(line);
      return;
    }
    const params = isRecord(message.params) ? message.params : undefined;
    if (isId(message.id)) {
      if (message.method === 'elicitation/create' && this.answering) return void this.question(message.id, message.params);
      this.agentRequests.add(message.id);
    } else if (message.method === 'session/update') {
      this.noteUpdate(params);
    } else if (message.method === 'elicitation/complete' && this.answering) {
      // A link we asked is finished: ours to know, nothing the client asked.
      return;
    }
    this.options.toClient(line);
  }

  /** One side went away: every question we are asking closes. */
  close(reason: string): void {
    this.closed = true;
    this.closeQuestions(() => true, reason);
  }

  private initialize(message: Message, params: Message | undefined, line: string): void {
    this.answering = !offersElicitation(params?.clientCapabilities);
    if (!this.answering) {
      this.options.toAgent(line);
      return;
    }
    const capabilities = isRecord(params?.clientCapabilities) ? params.clientCapabilities : {};
    this.options.toAgent(JSON.stringify({ ...message, params: { ...params, clientCapabilities: { ...capabilities, elicitation: PROXY_ELICITATION } } }));
  }

  private clientResponse(id: Id, line: string): void {
    if (!this.agentRequests.delete(id)) {
      this.options.log(`the client answered id ${JSON.stringify(id)}, which is no request of the agent's waiting for it; dropped`);
      return;
    }
    this.options.toAgent(line);
  }

  private agentResponse(id: Id, line: string): void {
    const request = this.clientRequests.get(id);
    if (!request) {
      this.options.log(`the agent answered id ${JSON.stringify(id)}, which is no request of the client's waiting for it; dropped`);
      return;
    }
    this.clientRequests.delete(id);
    request.answered.abort(new Error(`the ${request.method} it belongs to has ended`));
    if (request.method === 'session/prompt' && request.sessionId !== undefined) {
      this.closeQuestions((q) => q.sessionId === request.sessionId, 'the turn ended');
    }
    this.options.toClient(line);
  }

  private noteUpdate(params: Message | undefined): void {
    const update = isRecord(params?.update) ? params.update : undefined;
    const sessionId = params?.sessionId;
    if (!update || typeof sessionId !== 'string') return;
    if ((update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') && typeof update.toolCallId === 'string' && typeof update.title === 'string') {
      remember(this.toolTitles, `${sessionId}\u0000${update.toolCallId}`, update.title);
    }
    if (update.sessionUpdate === 'session_info_update' && typeof update.title === 'string' && update.title.trim() !== '') {
      remember(this.sessionLabels, sessionId, label(update.title));
    }
  }

  private labelFromPrompt(sessionId: string, prompt: unknown): void {
    const text = Array.isArray(prompt) ? prompt.find((b): b is { type: 'text'; text: string } => isRecord(b) && b.type === 'text' && typeof b.text === 'string')?.text : undefined;
    if (text !== undefined && text.trim() !== '') remember(this.sessionLabels, sessionId, label(text));
  }

  private closeQuestions(which: (q: OpenQuestion) => boolean, reason: string): void {
    for (const question of this.open.values()) if (which(question)) question.controller.abort(new Error(reason));
  }

  private reply(id: Id, result: CreateElicitationResponse): void {
    if (!this.closed) this.options.toAgent(JSON.stringify({ jsonrpc: '2.0', id, result }));
  }

  private refuse(id: Id, code: number, message: string): void {
    if (!this.closed) this.options.toAgent(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }

  private async question(id: Id, raw: unknown): Promise<void> {
    let asked: ProxyQuestion;
    const controller = new AbortController();
    let sessionId: string | undefined;
    try {
      const question = readAgentQuestion(raw);
      if (question.scope.kind === 'session') {
        sessionId = question.scope.sessionId;
        const tool = question.scope.toolCallId !== undefined ? this.toolTitles.get(`${sessionId}\u0000${question.scope.toolCallId}`) : undefined;
        const session = this.sessionLabels.get(sessionId);
        asked = { params: question.params, ...(tool !== undefined && { tool }), ...(session !== undefined && { session }) };
      } else {
        const request = question.scope.requestId === null ? undefined : this.clientRequests.get(question.scope.requestId);
        if (!request) throw new QuestionParamsError(`requestId ${JSON.stringify(question.scope.requestId)} is not a request of the client waiting for its answer`);
        // Closes when the agent answers the request it belongs to.
        request.answered.signal.addEventListener('abort', () => controller.abort(request.answered.signal.reason), { once: true });
        asked = { params: question.params, tool: 'before the session starts' };
      }
    } catch (error) {
      // Nothing may escape: this runs unawaited, and the agent waits for an answer.
      const refused = error instanceof QuestionParamsError;
      this.options.log(`the agent sent a question this proxy ${refused ? 'refused' : 'could not read'}: ${errorMessage(error)}`);
      this.refuse(id, refused ? -32602 : -32603, `${refused ? 'Invalid elicitation request' : 'The question could not be read'}: ${errorMessage(error)}`);
      return;
    }
    this.open.set(id, { ...(sessionId !== undefined && { sessionId }), controller });
    try {
      const result = await this.options.ask(asked, controller.signal);
      this.reply(id, controller.signal.aborted ? { action: 'cancel' } : result);
    } catch (error) {
      if (controller.signal.aborted) this.reply(id, { action: 'cancel' });
      else if (error instanceof ProxyQuestionRefused) this.refuse(id, -32602, `Invalid elicitation request: ${error.message}`);
      else {
        this.options.log(`a question could not be asked: ${errorMessage(error)}`);
        this.refuse(id, -32603, `The question could not be asked: ${errorMessage(error)}`);
      }
    } finally {
      this.open.delete(id);
    }
  }
}
