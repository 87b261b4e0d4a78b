/**
 * One live input request (the Agent Host Protocol's shape, live-model.ts) put to the person
 * through the broker, with its answers live both ways: every change in the store (the person
 * typing, a draft set from outside) is told to the asker in its own terms, and the asker may
 * set a draft into the open request. The completion carries the answers as they stood when it
 * ended. Used by the extension API's `requestInput` (src/api) and by the agent host inbox
 * (src/ahp). Pure: the broker and the store are handed in.
 *
 * A question that asks for a secret (`looksSecret`) is the person's alone: its changes are
 * told to nobody, it takes no draft from the asker, and its answer goes only with Accept.
 */
import type { Broker, ElicitContext, FormParams, UrlParams } from './broker';
import type { AnswerOrigin } from './answer-origin';
import type { Answer, ElicitAction } from './model';
import type { InputRequest as StoreRequest, RequestSource } from './request';
import { findRequest, type InputStore } from './store';
import { fromLiveAnswer, fromLiveAnswers, RequestAnswers, toElicitParams } from './live-request';
import type { LiveAnswer, LiveRequest } from './live-model';
import { errorMessage } from '../base/error-message';

export interface LiveAnswerChange {
  readonly questionId: string;
  /** Undefined: the answer was cleared. */
  readonly answer?: LiveAnswer;
  /** Who changed it (answer-origin.ts): the asker's own updates come back too, so it can tell them apart. */
  readonly origin: AnswerOrigin;
}

export interface LiveCompletion {
  readonly response: ElicitAction;
  /** The answers as they stood when it ended (submitted ones, for accept), in the asker's terms; a secret's only with accept. */
  readonly answers: Record<string, LiveAnswer>;
}

export type DraftResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface LiveAsk {
  /** Resolves when the person answers, declines or dismisses it, or `signal` fires first (cancel). */
  readonly completion: Promise<LiveCompletion>;
  /** Every change of an answer, whoever made it (the caller's own `updateDraft` too), but a secret's. Returns the function that removes the listener. */
  onDidChangeAnswer(listener: (change: LiveAnswerChange) => void): () => void;
  /** Sets (or, without an answer, clears) one question's draft in the open request, as the context's `origin`. */
  updateDraft(questionId: string, answer?: LiveAnswer): DraftResult;
}

export interface LiveAskContext {
  readonly source: RequestSource;
  readonly signal: AbortSignal;
  readonly applyDefaults: boolean;
  /** Whose the request's starting answers and `updateDraft`'s drafts are: the extension that asked, or another client of the host. */
  readonly origin: AnswerOrigin;
  /** Told the store's request as soon as it exists, before it is shown. */
  readonly onRequest?: (request: StoreRequest) => void;
}

function withoutKeys(answers: Record<string, LiveAnswer>, left: ReadonlySet<string>): Record<string, LiveAnswer> {
  const out: Record<string, LiveAnswer> = {};
  // defineProperty: a question may be called "__proto__".
  for (const [id, answer] of Object.entries(answers)) if (!left.has(id)) Object.defineProperty(out, id, { value: answer, enumerable: true });
  return out;
}

/**
 * Puts the request to the person. Throws RequestShapeError (naming the field) at once when
 * the request or its answers do not fit; the completion rejects with whatever the broker
 * refuses (a schema over a limit, too many open questions).
 */
export function askLive(deps: { readonly broker: Broker; readonly store: InputStore }, request: LiveRequest, ctx: LiveAskContext): LiveAsk {
  const { broker, store } = deps;
  const made = toElicitParams(request);
  const answers = new RequestAnswers(made.own);
  const drafts: Record<string, Answer> = {};
  for (const [id, given] of Object.entries(fromLiveAnswers(request?.answers))) {
    for (const [storeId, answer] of answers.toStore(id, given, `answers.${id}`)) if (answer) Object.defineProperty(drafts, storeId, { value: answer, enumerable: true });
  }
  let requestId: string | undefined;
  /** The asker's questions that ask for a secret (any of their questions in the store does). */
  let secret: ReadonlySet<string> = new Set();
  const listeners = new Set<(change: LiveAnswerChange) => void>();
  const unsubscribe = store.subscribe((state, action) => {
    if (action.type !== 'answerChanged' || action.requestId !== requestId) return;
    const questionId = answers.callerQuestion(action.questionId);
    if (secret.has(questionId)) return;
    const answer = answers.answerOf(findRequest(state, requestId)?.answers ?? {}, questionId);
    const change: LiveAnswerChange = { questionId, ...(answer && { answer }), origin: action.origin };
    for (const listener of [...listeners]) listener(change);
  });
  const context: ElicitContext = {
    source: ctx.source,
    signal: ctx.signal,
    applyDefaults: ctx.applyDefaults,
    onRequest: (r) => {
      requestId = r.id;
      secret = new Set(r.questions.filter((q) => q.looksSecret).map((q) => answers.callerQuestion(q.id)));
      ctx.onRequest?.(r);
    },
    drafts: { from: ctx.origin, answers: drafts },
    checkAnswers: (given) => answers.missing(given),
    // So a request of one such select is a pick with "Other…", not a form of two questions.
    ownAnswers: [...made.own].map(([selectId, pair]) => ({ selectId, ownId: pair.id, required: pair.required })),
  };
  let completion: Promise<LiveCompletion>;
  try {
    completion = broker
      .elicit(made.params as FormParams | UrlParams, context)
      .then((result) => {
        const state = requestId === undefined ? undefined : findRequest(store.state, requestId);
        const all = state ? answers.all(state.answers) : {};
        // Declined or dismissed: what was typed for a secret stays here.
        const kept = result.action === 'accept' || secret.size === 0 ? all : withoutKeys(all, secret);
        return { response: result.action, answers: kept };
      })
      .finally(unsubscribe);
  } catch (error) {
    unsubscribe();
    throw error;
  }
  return {
    completion,
    onDidChangeAnswer(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    updateDraft(questionId, answer) {
      if (requestId === undefined) return { ok: false, reason: 'the request is not open' };
      let changes;
      try {
        changes = answers.toStore(questionId, answer === undefined ? undefined : fromLiveAnswer(answer));
      } catch (error) {
        return { ok: false, reason: errorMessage(error) };
      }
      for (const [storeId, converted] of changes) {
        const result = store.dispatch({ type: 'answerChanged', requestId, questionId: storeId, ...(converted && { answer: converted }), origin: ctx.origin });
        if (!result.ok) return { ok: false, reason: result.reason };
      }
      return { ok: true };
    },
  };
}
