/** The actions we send (answers, drafts, a tool call's confirmation), in the naming the request came in. Pure. */
import type { InputResponse, WireAnswer } from './input-request';
import type { Naming } from './names';

/** The action that answers, in the naming the request came in (the earlier one also names the session). */
function ours(naming: Naming, channel: string, name: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { type: `${naming}/${name}`, ...(naming === 'session' && { session: channel }), ...fields };
}

export function answerChangedAction(naming: Naming, channel: string, requestId: string, questionId: string, answer: WireAnswer | undefined): Record<string, unknown> {
  return ours(naming, channel, 'inputAnswerChanged', { requestId, questionId, ...(answer && { answer }) });
}

export function inputCompletedAction(naming: Naming, channel: string, requestId: string, response: InputResponse, answers?: Readonly<Record<string, WireAnswer>>): Record<string, unknown> {
  return ours(naming, channel, 'inputCompleted', { requestId, response, ...(answers && { answers }) });
}

export function toolCallConfirmedAction(naming: Naming, channel: string, turnId: string, toolCallId: string, approved: boolean, selectedOptionId?: string): Record<string, unknown> {
  return ours(naming, channel, 'toolCallConfirmed', {
    turnId,
    toolCallId,
    approved,
    ...(approved ? { confirmed: 'user-action' } : { reason: 'denied' }),
    ...(selectedOptionId !== undefined && { selectedOptionId }),
  });
}
