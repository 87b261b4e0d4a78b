/**
 * The input store: the live state of every open request, its answer drafts and status.
 * Every UI surface renders from it and every change goes through the reducer, which
 * refuses what the Agent Host Protocol refuses (an answer for an unknown request, an
 * answer of the wrong kind, `accept` while a required question has no submitted answer),
 * and holds the one rule of drafts (answer-origin.ts): each change says where it came from,
 * and a draft from elsewhere never overwrites what the person changed.
 */
import { type AnswerOrigin, NONE_CHANGED, ORIGINS, refusedFrom } from './answer-origin';
import type { Answer, Answers, ElicitAction } from './model';
import type { InputRequest } from './request';
import { answerFits, ownAnswer } from './validation';

export type RequestStatus = 'open' | 'accepted' | 'declined' | 'cancelled' | 'abandoned';

export interface RequestState {
  readonly request: InputRequest;
  readonly answers: Answers;
  readonly status: RequestStatus;
  /** The questions the person changed since it opened (answer-origin.ts: drafts from elsewhere leave them alone). */
  readonly changedByPerson: ReadonlySet<string>;
  /** Why an abandoned request ended (the server cancelled, died, timed out...). */
  readonly reason?: string;
}

export interface StoreState {
  /** Open requests first come first served, then the most recent finished ones. */
  readonly requests: readonly RequestState[];
}

export type StoreAction =
  | { readonly type: 'requested'; readonly request: InputRequest }
  | {
      readonly type: 'answerChanged';
      readonly requestId: string;
      readonly questionId: string;
      /** Absent clears the answer. */
      readonly answer?: Answer;
      /** Who changed it: the person (in which surface), the asker, another answerer. */
      readonly origin: AnswerOrigin;
    }
  | {
      readonly type: 'completed';
      readonly requestId: string;
      readonly response: ElicitAction;
      /** Answers to record with the completion (merged over the drafts). */
      readonly answers?: Answers;
    }
  | { readonly type: 'abandoned'; readonly requestId: string; readonly reason: string };

export type ReduceResult = { readonly ok: true; readonly state: StoreState } | { readonly ok: false; readonly reason: string };

/** Finished requests kept for history; open ones are never dropped. */
export const FINISHED_KEPT = 20;

export const EMPTY_STORE: StoreState = { requests: [] };

const FINAL_STATUS: Record<ElicitAction, RequestStatus> = {
  accept: 'accepted',
  decline: 'declined',
  cancel: 'cancelled',
};

function refuse(reason: string): ReduceResult {
  return { ok: false, reason };
}

function withRequest(state: StoreState, id: string, next: RequestState): StoreState {
  if (next.status === 'open') return { requests: state.requests.map((r) => (r.request.id === id ? next : r)) };
  // Keep open requests in arrival order ahead of a bounded tail of finished ones (one pass: this runs for every question).
  const open: RequestState[] = [];
  const finished: RequestState[] = [next];
  for (const r of state.requests) {
    if (r.request.id === id) continue;
    if (r.status === 'open') open.push(r);
    else if (finished.length < FINISHED_KEPT) finished.push(r);
  }
  return { requests: open.concat(finished) };
}

export function reduce(state: StoreState, action: StoreAction): ReduceResult {
  if (action.type === 'requested') {
    const open: RequestState[] = [];
    const finished: RequestState[] = [];
    for (const r of state.requests) {
      if (r.request.id === action.request.id) return refuse(`a request with id ${action.request.id} already exists`);
      (r.status === 'open' ? open : finished).push(r);
    }
    open.push({ request: action.request, answers: {}, status: 'open', changedByPerson: NONE_CHANGED });
    return { ok: true, state: { requests: open.concat(finished) } };
  }

  const current = state.requests.find((r) => r.request.id === action.requestId);
  if (!current) return refuse(`no input request has id ${action.requestId}`);
  if (current.status !== 'open') return refuse(`input request ${action.requestId} is already ${current.status}`);

  switch (action.type) {
    case 'answerChanged': {
      const question = current.request.questions.find((q) => q.id === action.questionId);
      if (!question) return refuse(`input request ${action.requestId} has no question ${action.questionId}`);
      const refused = refusedFrom(action.origin, question, current.changedByPerson);
      if (refused !== undefined) return refuse(refused);
      const others = Object.entries(current.answers).filter(([id]) => id !== action.questionId);
      if (action.answer !== undefined) {
        if (action.answer.state !== 'skipped' && action.answer.value === undefined) {
          return refuse(`the answer to ${action.questionId} has no value`);
        }
        if (!answerFits(question, action.answer)) {
          return refuse(`the answer to ${action.questionId} is not of kind ${question.kind}`);
        }
        others.push([action.questionId, action.answer]);
      }
      // fromEntries, not assignment: a question may be called "__proto__".
      const answers: Answers = Object.fromEntries(others);
      const changedByPerson = ORIGINS[action.origin].person && !current.changedByPerson.has(question.id) ? new Set([...current.changedByPerson, question.id]) : current.changedByPerson;
      return { ok: true, state: withRequest(state, action.requestId, { ...current, answers, changedByPerson }) };
    }
    case 'completed': {
      const answers: Answers = { ...current.answers, ...action.answers };
      for (const [questionId, answer] of Object.entries(action.answers ?? {})) {
        const question = current.request.questions.find((q) => q.id === questionId);
        if (!question) return refuse(`input request ${action.requestId} has no question ${questionId}`);
        if (!answerFits(question, answer)) return refuse(`the answer to ${questionId} is not of kind ${question.kind}`);
      }
      if (action.response === 'accept') {
        const missing = current.request.questions.filter(
          (q) => q.required && ownAnswer(answers, q.id)?.state !== 'submitted',
        );
        if (missing.length > 0) {
          return refuse(`cannot accept: no submitted answer for ${missing.map((q) => q.id).join(', ')}`);
        }
      }
      const next: RequestState = { ...current, answers, status: FINAL_STATUS[action.response] };
      return { ok: true, state: withRequest(state, action.requestId, next) };
    }
    case 'abandoned': {
      const next: RequestState = { ...current, status: 'abandoned', reason: action.reason };
      return { ok: true, state: withRequest(state, action.requestId, next) };
    }
  }
}

export function openRequests(state: StoreState): RequestState[] {
  return state.requests.filter((r) => r.status === 'open');
}

export function findRequest(state: StoreState, id: string): RequestState | undefined {
  return state.requests.find((r) => r.request.id === id);
}

export type StoreListener = (state: StoreState, action: StoreAction) => void;

/** Holds the state, applies actions through the reducer and tells listeners. */
export class InputStore {
  private current: StoreState = EMPTY_STORE;
  private readonly listeners = new Set<StoreListener>();

  get state(): StoreState {
    return this.current;
  }

  dispatch(action: StoreAction): ReduceResult {
    const result = reduce(this.current, action);
    if (result.ok) {
      this.current = result.state;
      for (const listener of [...this.listeners]) listener(this.current, action);
    }
    return result;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
