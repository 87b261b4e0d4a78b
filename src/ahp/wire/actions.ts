/** The actions the inbox acts on, checked (in either naming); every other type is `other`. Pure. */
import type { ActionEnvelope } from './envelope';
import { type InputResponse, readAnswer, readAnswers, readInputRequest, type WireAnswer, type WireInputRequest } from './input-request';
import { AHP_LIMITS, type Naming } from './names';
import { type AgentInfo, readAgents } from './root';
import { readToolCall, type WireToolCall } from './tool-call';
import { fail, id, optional, record, text } from './check';

export type TurnEnd = 'complete' | 'cancelled' | 'error' | 'truncated';

/** The actions the inbox acts on, checked; every other type is `other`. */
export type KnownAction =
  | { readonly type: 'turnStarted'; readonly naming: Naming; readonly turnId: string }
  | { readonly type: 'turnEnded'; readonly naming: Naming; readonly turnId?: string; readonly how: TurnEnd }
  | { readonly type: 'inputRequested'; readonly naming: Naming; readonly request: WireInputRequest }
  | { readonly type: 'inputAnswerChanged'; readonly naming: Naming; readonly requestId: string; readonly questionId: string; readonly answer?: WireAnswer }
  | { readonly type: 'inputCompleted'; readonly naming: Naming; readonly requestId: string; readonly response: InputResponse; readonly answers?: Readonly<Record<string, WireAnswer>> }
  | { readonly type: 'toolCallReady'; readonly naming: Naming; readonly turnId: string; readonly call: WireToolCall; readonly confirmed: boolean }
  | { readonly type: 'toolCallSettled'; readonly naming: Naming; readonly turnId: string; readonly toolCallId: string; readonly how: 'approved' | 'denied' | 'completed' }
  | { readonly type: 'titleChanged'; readonly title: string }
  | { readonly type: 'chatAdded'; readonly chat: string }
  | { readonly type: 'chatRemoved'; readonly chat: string }
  | { readonly type: 'agentsChanged'; readonly agents: readonly AgentInfo[] }
  | { readonly type: 'other'; readonly name: string };

const TURN_ENDS: Readonly<Record<string, TurnEnd>> = { turnComplete: 'complete', turnCancelled: 'cancelled', error: 'error', truncated: 'truncated' };

export function readAction(action: ActionEnvelope['action']): KnownAction {
  const a = action;
  const slash = a.type.indexOf('/');
  const scope = a.type.slice(0, slash);
  const name = a.type.slice(slash + 1);
  if (scope === 'root' && name === 'agentsChanged') return { type: 'agentsChanged', agents: readAgents(a.agents, 'action.agents') };
  if (scope === 'session') {
    if (name === 'titleChanged') return { type: 'titleChanged', title: text(a.title, 'action.title', AHP_LIMITS.labelChars) };
    if (name === 'chatAdded') return { type: 'chatAdded', chat: id(record(a.summary, 'action.summary').resource, 'action.summary.resource') };
    if (name === 'chatRemoved') return { type: 'chatRemoved', chat: id(a.chat, 'action.chat') };
  }
  if (scope !== 'chat' && scope !== 'session') return { type: 'other', name: a.type };
  const naming: Naming = scope;
  const turnId = (): string => id(a.turnId, 'action.turnId');
  switch (name) {
    case 'turnStarted':
      return { type: 'turnStarted', naming, turnId: turnId() };
    case 'turnComplete':
    case 'turnCancelled':
    case 'error':
    case 'truncated': {
      const turn = optional(a.turnId, (x) => id(x, 'action.turnId'));
      return { type: 'turnEnded', naming, how: TURN_ENDS[name], ...(turn !== undefined && { turnId: turn }) };
    }
    case 'inputRequested':
      return { type: 'inputRequested', naming, request: readInputRequest(a.request, 'action.request') };
    case 'inputAnswerChanged': {
      const answer = optional(a.answer, (x) => readAnswer(x, 'action.answer'));
      return { type: 'inputAnswerChanged', naming, requestId: id(a.requestId, 'action.requestId'), questionId: id(a.questionId, 'action.questionId'), ...(answer && { answer }) };
    }
    case 'inputCompleted': {
      if (a.response !== 'accept' && a.response !== 'decline' && a.response !== 'cancel') fail('action.response', 'must be accept, decline or cancel');
      const answers = optional(a.answers, (x) => readAnswers(x, 'action.answers'));
      return { type: 'inputCompleted', naming, requestId: id(a.requestId, 'action.requestId'), response: a.response, ...(answers && { answers }) };
    }
    case 'toolCallReady':
      return { type: 'toolCallReady', naming, turnId: turnId(), call: readToolCall({ ...a, status: 'pending-confirmation' }, 'action'), confirmed: a.confirmed !== undefined && a.confirmed !== null };
    case 'toolCallConfirmed':
      return { type: 'toolCallSettled', naming, turnId: turnId(), toolCallId: id(a.toolCallId, 'action.toolCallId'), how: a.approved === true ? 'approved' : 'denied' };
    case 'toolCallComplete':
      return { type: 'toolCallSettled', naming, turnId: turnId(), toolCallId: id(a.toolCallId, 'action.toolCallId'), how: 'completed' };
    default:
      return { type: 'other', name: a.type };
  }
}
