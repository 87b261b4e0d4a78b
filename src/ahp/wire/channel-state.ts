/** A channel's state as the inbox needs it: a conversation's (a chat's, or an earlier session's) open requests and tool calls, a session's title and chats. Pure. */
import { isRecord } from '../../base/is-record';
import { readInputRequest, type WireInputRequest } from './input-request';
import { AHP_LIMITS } from './names';
import { readToolCall, type WireToolCall } from './tool-call';
import { fail, id, list, optional, record, text, WireError } from './check';

/** What a conversation's state holds that the inbox needs: the active turn's open requests and tool calls. */
export interface ConversationView {
  readonly activeTurnId?: string;
  readonly requests: readonly WireInputRequest[];
  readonly toolCalls: ReadonlyArray<{ readonly turnId: string; readonly call: WireToolCall }>;
  /** Requests and tool calls left out because they broke the protocol or a limit (each names where). */
  readonly problems: readonly string[];
}

export function readConversation(state: Record<string, unknown>): ConversationView {
  const requests: WireInputRequest[] = [];
  const toolCalls: Array<{ turnId: string; call: WireToolCall }> = [];
  const problems: string[] = [];
  // One bad request does not cost the others: each is read on its own.
  const each = (read: () => void): void => {
    try {
      read();
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      problems.push(error.message);
    }
  };
  // The earlier generation kept open requests at the top of the session's state.
  if (state.inputRequests !== undefined) {
    const open = Array.isArray(state.inputRequests) ? state.inputRequests.slice(0, AHP_LIMITS.openPerChat) : fail('state.inputRequests', 'must be a list');
    open.forEach((r: unknown, i) => each(() => requests.push(readInputRequest(r, `state.inputRequests[${i}]`))));
  }
  const turn = optional(state.activeTurn, (x) => record(x, 'state.activeTurn'));
  if (!turn) return { requests, toolCalls, problems };
  const turnId = id(turn.id, 'state.activeTurn.id');
  // Parts other than open requests and tool calls (text, reasoning...) are not read at all.
  const parts = Array.isArray(turn.responseParts) ? turn.responseParts : [];
  parts.forEach((part: unknown, i) => {
    const path = `state.activeTurn.responseParts[${i}]`;
    if (!isRecord(part)) return;
    if (part.kind === 'inputRequest' && part.response === undefined && requests.length < AHP_LIMITS.openPerChat) each(() => requests.push(readInputRequest(part.request, `${path}.request`)));
    if (part.kind === 'toolCall' && isRecord(part.toolCall) && part.toolCall.status === 'pending-confirmation' && toolCalls.length < AHP_LIMITS.openPerChat) each(() => toolCalls.push({ turnId, call: readToolCall(part.toolCall, `${path}.toolCall`) }));
  });
  return { activeTurnId: turnId, requests, toolCalls, problems };
}

export interface SessionView {
  readonly title?: string;
  readonly chats: readonly string[];
}

export function readSessionState(state: Record<string, unknown>): SessionView {
  const summary = isRecord(state.summary) ? state.summary : {};
  const title = optional(state.title ?? summary.title, (x) => text(x, 'state.title', AHP_LIMITS.labelChars));
  const chats = new Set<string>();
  if (state.chats !== undefined) list(state.chats, 'state.chats', 200, 'chat', (c, p) => chats.add(id(record(c, p).resource, `${p}.resource`)));
  if (state.defaultChat !== undefined && state.defaultChat !== null) chats.add(id(state.defaultChat, 'state.defaultChat'));
  return { ...(title !== undefined && { title }), chats: [...chats] };
}
