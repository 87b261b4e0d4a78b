/**
 * An ACP agent's `elicitation/create`, read as the agent sent it (not as the SDK's parser
 * would reshape it: that drops keywords we must refuse and turns wrong types into nothing)
 * and put to the same broker, validation, store and History as an MCP server's.
 *
 * ACP's differences from MCP, at this edge: `mode` is required; a question is scoped to a
 * session (and maybe a tool call) or, with `requestId`, to a request of ours before any
 * session exists; optional fields may be `null` ("omitted and null are equivalent"), which
 * MCP's subset does not allow, so nulls are dropped from the schema before it is parsed.
 * `pattern` on strings and `description` on options the schema parser reads already.
 */
import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import type { Broker, FormParams, UrlParams } from '../elicitation/broker';
import { type ParamsEdge, readElicitParams } from '../elicitation/elicit-params';
import { isRecord } from '../base/is-record';
import type { ContentValue } from '../elicitation/model';
import type { RequestSource } from '../elicitation/request';
import { parseRequestedSchema } from '../elicitation/schema';
import { shownAnswer } from '../elicitation/shown-answer';
import type { AgentSettings } from './ports';
import type { QuestionAnswer } from './session-events';

export type QuestionScope =
  | { readonly kind: 'session'; readonly sessionId: string; readonly toolCallId?: string }
  | { readonly kind: 'request'; readonly requestId: string | number | null };

export interface AgentQuestion {
  readonly params: FormParams | UrlParams;
  readonly scope: QuestionScope;
}

/** The request's own shape is wrong: the agent gets -32602 with this message. */
export class QuestionParamsError extends Error {}

/** The schema with every `null`-valued key dropped (ACP's spelling of "absent"); arrays are left as sent. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (isRecord(item) ? withoutNulls(item) : item));
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

function scopeOf(raw: Record<string, unknown>): QuestionScope {
  if (raw.sessionId !== undefined) {
    if (typeof raw.sessionId !== 'string' || raw.sessionId === '') throw new QuestionParamsError('sessionId must be a non-empty string');
    if (raw.toolCallId !== undefined && raw.toolCallId !== null && typeof raw.toolCallId !== 'string') throw new QuestionParamsError('toolCallId must be a string');
    return { kind: 'session', sessionId: raw.sessionId, ...(typeof raw.toolCallId === 'string' && { toolCallId: raw.toolCallId }) };
  }
  if ('requestId' in raw) {
    const id = raw.requestId;
    if (id !== null && typeof id !== 'string' && typeof id !== 'number') throw new QuestionParamsError('requestId must be a string, a number or null');
    return { kind: 'request', requestId: id };
  }
  throw new QuestionParamsError('an elicitation needs a sessionId (a question in a session) or a requestId (a question before one)');
}

/** ACP's params as the core reads every edge's (elicitation/elicit-params.ts): `mode` required, a link's `elicitationId` too. */
const ACP_PARAMS: ParamsEdge = { prefix: '', strict: true, error: (message) => new QuestionParamsError(message) };

/** Reads `elicitation/create`'s params, naming the field at fault. */
export function readAgentQuestion(raw: unknown): AgentQuestion {
  const params = readElicitParams(raw, ACP_PARAMS);
  const scope = scopeOf(raw as Record<string, unknown>);
  return { scope, params: params.mode === 'url' ? params : { ...params, requestedSchema: withoutNulls(params.requestedSchema) } };
}

/**
 * Puts the question to the person. It closes when `signal` fires (the turn is cancelled,
 * the request it belongs to ended, the agent went away) or after the configured timeout.
 */
export async function askAgentQuestion(broker: Broker, question: AgentQuestion, source: RequestSource, signal: AbortSignal, settings: AgentSettings): Promise<CreateElicitationResponse> {
  if (question.params.mode === 'url' && !settings.urlMode) throw new QuestionParamsError('URL-mode elicitation is not offered by this client (it is turned off)');
  const ms = settings.elicitationTimeoutMs;
  const timeout = new AbortController();
  // The History reads "no answer within N s" as timed out, as it does for a server's question.
  const timer = ms > 0 ? setTimeout(() => timeout.abort(new Error(`no answer within ${Math.round(ms / 1000)} s`)), ms) : undefined;
  try {
    const result = await broker.elicit(question.params, { source, signal: AbortSignal.any([signal, timeout.signal]), applyDefaults: settings.applyDefaults });
    return result.action === 'accept' && result.content ? { action: 'accept', content: result.content } : { action: result.action };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** What was answered, as the person reads it: each answered field's title and answer (option titles, Yes or No, secrets masked). */
export function answersShown(question: AgentQuestion, result: CreateElicitationResponse): QuestionAnswer[] {
  if (question.params.mode !== 'form' || result.action !== 'accept' || !isRecord(result.content)) return [];
  const parsed = parseRequestedSchema(question.params.requestedSchema as Parameters<typeof parseRequestedSchema>[0]);
  if (!parsed.ok) return [];
  const content = result.content;
  return parsed.form.questions.flatMap((q) => {
    const value = content[q.id] as ContentValue | undefined;
    return value === undefined || value === '' || (Array.isArray(value) && value.length === 0) ? [] : [{ question: q.title, answer: shownAnswer(q, value) }];
  });
}
