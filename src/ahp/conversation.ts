/**
 * One conversation of an agent host as far as the inbox cares: its open input requests and
 * its tool calls waiting for a confirmation, kept from the channel's snapshot and actions.
 * A conversation is a chat channel (`chat/*` names, VS Code 1.139.1 and AHP 1.x) or, in the
 * protocol's earlier generation, a session channel (`session/*`, open requests at the top of
 * the session's state). It says what opened, which answer changed (and who changed it: the
 * envelope's origin), and why something closed: answered (by whom) or withdrawn (its
 * turn ended, was cancelled or failed, or the host no longer has it). Pure.
 */
import type { AhpLog } from './ports';
import { readAction, type TurnEnd } from './wire/actions';
import { type ConversationView, readConversation } from './wire/channel-state';
import { type ActionAuthor, type ActionEnvelope, authorOf } from './wire/envelope';
import type { InputResponse, WireAnswer, WireInputRequest } from './wire/input-request';
import { AHP_LIMITS, type Naming } from './wire/names';
import type { WireToolCall } from './wire/tool-call';

export type OpenItem =
  | { readonly kind: 'input'; readonly key: string; readonly channel: string; readonly naming: Naming; readonly request: WireInputRequest }
  | { readonly kind: 'tool'; readonly key: string; readonly channel: string; readonly naming: Naming; readonly turnId: string; readonly call: WireToolCall };

export type Closing =
  | { readonly kind: 'answered'; readonly by: ActionAuthor; readonly how: InputResponse | 'approved' | 'denied' | 'completed' }
  | { readonly kind: 'withdrawn'; readonly why: string };

export interface ConversationListener {
  opened(item: OpenItem): void;
  answerChanged(key: string, questionId: string, answer: WireAnswer | undefined, by: ActionAuthor): void;
  closed(key: string, closing: Closing): void;
  /** A request or tool call of the snapshot that could not be read (it is not asked). */
  refused(reason: string): void;
}

const TURN_WORDS: Readonly<Record<TurnEnd, string>> = {
  complete: "the agent's turn ended",
  cancelled: "the agent's turn was cancelled",
  error: "the agent's turn failed",
  truncated: 'the chat was cut back',
};

export function itemKey(channel: string, kind: OpenItem['kind'], id: string): string {
  return `${channel}\n${kind}\n${id}`;
}

/** Same questions, message and link: a re-sent request that only carries answers is not a new question. */
function sameAsk(a: WireInputRequest, b: WireInputRequest): boolean {
  return a.message === b.message && a.url === b.url && JSON.stringify(a.questions) === JSON.stringify(b.questions);
}

function sameAnswer(a: WireAnswer | undefined, b: WireAnswer | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A question's answer; a question called "__proto__" must not find the prototype. */
function own(answers: Readonly<Record<string, WireAnswer>>, questionId: string): WireAnswer | undefined {
  return Object.prototype.hasOwnProperty.call(answers, questionId) ? answers[questionId] : undefined;
}

export class Conversation {
  private readonly requests = new Map<string, { request: WireInputRequest; answers: Record<string, WireAnswer> }>();
  private readonly toolCalls = new Map<string, { turnId: string; call: WireToolCall }>();
  private activeTurnId: string | undefined;

  constructor(
    readonly channel: string,
    readonly naming: Naming,
    private readonly listener: ConversationListener,
    private readonly log: AhpLog,
    /** The client id our own writes come back with. */
    private readonly ourClientId: () => string,
  ) {}

  /** Open requests by id, with their answers as they stand. */
  openRequest(requestId: string): WireInputRequest | undefined {
    const open = this.requests.get(requestId);
    return open && { ...open.request, answers: { ...open.answers } };
  }

  hasToolCall(toolCallId: string): boolean {
    return this.toolCalls.has(toolCallId);
  }

  /** An item still open, as it was opened (to ask again when the host refused our answer). */
  item(key: string): OpenItem | undefined {
    for (const [id, open] of this.requests) if (itemKey(this.channel, 'input', id) === key) return { kind: 'input', key, channel: this.channel, naming: this.naming, request: { ...open.request, answers: { ...open.answers } } };
    for (const [id, { turnId, call }] of this.toolCalls) if (itemKey(this.channel, 'tool', id) === key) return { kind: 'tool', key, channel: this.channel, naming: this.naming, turnId, call };
    return undefined;
  }

  /** The channel's state, whole (a snapshot): what is new opens, what is gone closes, changed answers are told. */
  reset(state: Record<string, unknown>, goneWhy = 'the agent host no longer asks it'): void {
    const view: ConversationView = readConversation(state);
    for (const problem of view.problems) this.listener.refused(`agent host chat ${this.channel}: left out a question: ${problem}`);
    this.activeTurnId = view.activeTurnId;
    const requestIds = new Set(view.requests.map((r) => r.id));
    for (const id of [...this.requests.keys()]) if (!requestIds.has(id)) this.closeRequest(id, { kind: 'withdrawn', why: goneWhy });
    for (const request of view.requests) this.upsertRequest(request, false);
    const callIds = new Set(view.toolCalls.map((t) => t.call.toolCallId));
    for (const id of [...this.toolCalls.keys()]) if (!callIds.has(id)) this.closeToolCall(id, { kind: 'withdrawn', why: goneWhy });
    for (const { turnId, call } of view.toolCalls) if (!this.toolCalls.has(call.toolCallId)) this.openToolCall(turnId, call);
  }

  /** Everything closes: the chat or its session is gone, or the host connection is. */
  closeAll(why: string): void {
    for (const id of [...this.requests.keys()]) this.closeRequest(id, { kind: 'withdrawn', why });
    for (const id of [...this.toolCalls.keys()]) this.closeToolCall(id, { kind: 'withdrawn', why });
  }

  /** One action of this channel. A malformed one throws a WireError (the caller drops it). */
  apply(envelope: ActionEnvelope): void {
    if (envelope.rejectionReason !== undefined) return; // the host refused it: nothing changed
    const action = readAction(envelope.action);
    if ('naming' in action && action.naming !== this.naming) return;
    const by = authorOf(envelope, this.ourClientId());
    switch (action.type) {
      case 'turnStarted':
        // A new turn: what the last one left open is abandoned.
        this.endTurn(undefined, "the agent's turn ended");
        this.activeTurnId = action.turnId;
        return;
      case 'turnEnded':
        if (action.turnId === undefined || this.activeTurnId === undefined || action.turnId === this.activeTurnId) this.endTurn(action.turnId, TURN_WORDS[action.how]);
        return;
      case 'inputRequested':
        this.upsertRequest(action.request, true);
        return;
      case 'inputAnswerChanged': {
        const open = this.requests.get(action.requestId);
        if (!open) return;
        if (action.answer === undefined) delete open.answers[action.questionId];
        else Object.defineProperty(open.answers, action.questionId, { value: action.answer, enumerable: true, configurable: true, writable: true });
        this.listener.answerChanged(itemKey(this.channel, 'input', action.requestId), action.questionId, action.answer, by);
        return;
      }
      case 'inputCompleted':
        this.closeRequest(action.requestId, { kind: 'answered', by, how: action.response });
        return;
      case 'toolCallReady':
        if (action.confirmed) this.closeToolCall(action.call.toolCallId, { kind: 'answered', by, how: 'approved' });
        else this.openToolCall(action.turnId, action.call);
        return;
      case 'toolCallSettled':
        this.closeToolCall(action.toolCallId, action.how === 'completed' ? { kind: 'withdrawn', why: 'the tool call went ahead without a confirmation' } : { kind: 'answered', by, how: action.how });
        return;
      default:
        return;
    }
  }

  private endTurn(turnId: string | undefined, why: string): void {
    for (const id of [...this.requests.keys()]) this.closeRequest(id, { kind: 'withdrawn', why });
    for (const [id, entry] of [...this.toolCalls]) if (turnId === undefined || entry.turnId === turnId) this.closeToolCall(id, { kind: 'withdrawn', why });
    this.activeTurnId = undefined;
  }

  private upsertRequest(request: WireInputRequest, fromAction: boolean): void {
    const key = itemKey(this.channel, 'input', request.id);
    const open = this.requests.get(request.id);
    if (open && sameAsk(open.request, request)) {
      // Drafts are kept unless the request brings answers (AHP's upsert); a snapshot always has them whole.
      const next = fromAction && Object.keys(request.answers).length === 0 ? open.answers : { ...request.answers };
      for (const questionId of new Set([...Object.keys(open.answers), ...Object.keys(next)])) {
        if (!sameAnswer(own(open.answers, questionId), own(next, questionId))) this.listener.answerChanged(key, questionId, own(next, questionId), 'the host');
      }
      open.answers = next;
      return;
    }
    if (open) this.closeRequest(request.id, { kind: 'withdrawn', why: 'the agent changed the question' });
    if (this.requests.size >= AHP_LIMITS.openPerChat) {
      this.log.warn(`agent host chat ${this.channel}: more than ${AHP_LIMITS.openPerChat} open requests (AHP_LIMITS.openPerChat); request ${request.id} is not shown`);
      return;
    }
    this.requests.set(request.id, { request, answers: { ...request.answers } });
    this.listener.opened({ kind: 'input', key, channel: this.channel, naming: this.naming, request });
  }

  private openToolCall(turnId: string, call: WireToolCall): void {
    if (this.toolCalls.has(call.toolCallId)) this.closeToolCall(call.toolCallId, { kind: 'withdrawn', why: 'the agent asks again' });
    if (this.toolCalls.size >= AHP_LIMITS.openPerChat) {
      this.log.warn(`agent host chat ${this.channel}: more than ${AHP_LIMITS.openPerChat} tool calls waiting (AHP_LIMITS.openPerChat); ${call.toolCallId} is not shown`);
      return;
    }
    this.toolCalls.set(call.toolCallId, { turnId, call });
    this.listener.opened({ kind: 'tool', key: itemKey(this.channel, 'tool', call.toolCallId), channel: this.channel, naming: this.naming, turnId, call });
  }

  private closeRequest(requestId: string, closing: Closing): void {
    if (!this.requests.delete(requestId)) return;
    this.listener.closed(itemKey(this.channel, 'input', requestId), closing);
  }

  private closeToolCall(toolCallId: string, closing: Closing): void {
    if (!this.toolCalls.delete(toolCallId)) return;
    this.listener.closed(itemKey(this.channel, 'tool', toolCallId), closing);
  }
}
