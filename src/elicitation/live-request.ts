/**
 * A live input request (live-model.ts, the Agent Host Protocol's shape) in the broker's terms and back: its
 * questions as the flat schema the broker parses (so they are validated and capped like a
 * server's), its answers as the store's. The answer shapes are the same on both sides; what
 * comes in is checked field by field. Shared by the extension API (another extension's
 * request, src/api) and the agent host inbox (a host's request, src/ahp); live-ask.ts puts
 * one to the person. Pure.
 */
import type { Answer, Answers, AnswerValue } from './model';
import { type FieldError, ownAnswer } from './validation';
import type { LiveAnswer, LiveAnswerValue, LiveQuestion, LiveRequest } from './live-model';
import { isRecord } from '../base/is-record';
import { joinOwnAnswer, type OwnAnswerQuestion, ownAnswerId, ownAnswerMissing, ownAnswerProperty, splitOwnAnswer } from './freeform';

// The store's answer values are the live ones but for the person's own answers (freeform.ts): the compiler holds it.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type WithoutOwn<T> = T extends { readonly kind: infer K extends 'selected' | 'selected-many'; readonly value: infer V } ? { readonly kind: K; readonly value: V } : T;
export const STORE_ANSWERS_ARE_LIVE: Equal<AnswerValue, WithoutOwn<LiveAnswerValue>> = true;

export class RequestShapeError extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
  }
}

/** One question as a JSON Schema property of the elicitation subset. */
function property(question: LiveQuestion, path: string): Record<string, unknown> {
  const common = { ...(question.title !== undefined && { title: question.title }), ...(question.description !== undefined && { description: question.description }) };
  const withDefault = question.default !== undefined ? { default: question.default } : {};
  switch (question.kind) {
    case 'text': {
      const { format, minLength, maxLength, pattern } = question;
      return { type: 'string', ...common, ...(format && { format }), ...(minLength !== undefined && { minLength }), ...(maxLength !== undefined && { maxLength }), ...(pattern !== undefined && { pattern }), ...withDefault };
    }
    case 'number':
    case 'integer':
      return { type: question.kind, ...common, ...(question.minimum !== undefined && { minimum: question.minimum }), ...(question.maximum !== undefined && { maximum: question.maximum }), ...withDefault };
    case 'boolean':
      return { type: 'boolean', ...common, ...withDefault };
    case 'single-select':
      return { type: 'string', ...common, oneOf: options(question.options, path), ...withDefault };
    case 'multi-select': {
      const { minItems, maxItems } = question;
      return { type: 'array', ...common, items: { anyOf: options(question.options, path) }, ...(minItems !== undefined && { minItems }), ...(maxItems !== undefined && { maxItems }), ...withDefault };
    }
    default:
      throw new RequestShapeError(`${path}.kind`, `must be text, number, integer, boolean, single-select or multi-select, not ${JSON.stringify((question as { kind?: unknown }).kind)}`);
  }
}

function options(list: unknown, path: string): Array<{ const: string; title: string; description?: string }> {
  if (!Array.isArray(list) || list.length === 0) throw new RequestShapeError(`${path}.options`, 'must be a non-empty list');
  return list.map((o: unknown, i) => {
    if (!isRecord(o) || typeof o.id !== 'string' || typeof o.label !== 'string') throw new RequestShapeError(`${path}.options[${i}]`, 'must be { id: string, label: string }');
    // An agent host's options may say more about themselves (the schema takes a description per option).
    return { const: o.id, title: o.label, ...(typeof o.description === 'string' && { description: o.description }) };
  });
}

export type FormRequestParams = { message: string; requestedSchema: Record<string, unknown> };
export type UrlRequestParams = { mode: 'url'; message: string; url: string };

/**
 * The request as the broker's params: a link, or a form whose property keys are the question
 * ids, plus a text question after each select that takes the person's own answer.
 */
export function toElicitParams(request: LiveRequest): { params: FormRequestParams | UrlRequestParams; own: ReadonlyMap<string, OwnAnswerQuestion> } {
  if (!isRecord(request)) throw new RequestShapeError('request', 'must be an object');
  if (typeof request.message !== 'string') throw new RequestShapeError('message', 'must be a string');
  const questions = request.questions ?? [];
  if (!Array.isArray(questions)) throw new RequestShapeError('questions', 'must be a list');
  if (request.url !== undefined) {
    if (typeof request.url !== 'string') throw new RequestShapeError('url', 'must be a string');
    if (questions.length > 0) throw new RequestShapeError('url', 'a request with a link asks no questions here: send the questions as a second request');
    return { params: { mode: 'url', message: request.message, url: request.url }, own: new Map() };
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const own = new Map<string, OwnAnswerQuestion>();
  const define = (id: string, value: unknown, path: string): void => {
    if (Object.prototype.hasOwnProperty.call(properties, id)) throw new RequestShapeError(path, `"${id}" is used twice`);
    Object.defineProperty(properties, id, { value, enumerable: true });
  };
  questions.forEach((q: unknown, i) => {
    const path = `questions[${i}]`;
    if (!isRecord(q) || typeof q.id !== 'string' || q.id === '') throw new RequestShapeError(`${path}.id`, 'must be a non-empty string');
    const question = q as unknown as LiveQuestion;
    const freeform = (question.kind === 'single-select' || question.kind === 'multi-select') && question.allowFreeformInput === true;
    const shape = property(question, path);
    // Required of neither question in the schema, so the form says it in words.
    if (freeform && question.required === true) shape.description = [question.description, 'Required: choose one, or type your own answer below.'].filter(Boolean).join(' ');
    define(question.id, shape, `${path}.id`);
    if (freeform) {
      // The person's own answer is a text question of its own, right after the options.
      const pair: OwnAnswerQuestion = { id: ownAnswerId(question.id), multi: question.kind === 'multi-select', required: question.required === true };
      define(pair.id, ownAnswerProperty(question), `${path}.id`);
      own.set(question.id, pair);
    } else if (q.allowFreeformInput !== undefined && q.allowFreeformInput !== false) {
      throw new RequestShapeError(`${path}.allowFreeformInput`, 'is for single-select and multi-select questions, and is true or false');
    }
    // One of the two answers a required freeform question (checked on submit: RequestAnswers.missing).
    if (question.required === true && !freeform) required.push(question.id);
  });
  return { params: { message: request.message, requestedSchema: { type: 'object', properties, ...(required.length > 0 && { required }) } }, own };
}

function answerValue(value: unknown, path: string): LiveAnswerValue {
  if (!isRecord(value)) throw new RequestShapeError(path, 'must be { kind, value }');
  const v = value.value;
  const freeformValues = (): { freeformValues?: string[] } => {
    const own = value.freeformValues;
    if (own === undefined) return {};
    if (!Array.isArray(own) || !own.every((x) => typeof x === 'string')) throw new RequestShapeError(`${path}.freeformValues`, 'must be a list of strings');
    return { freeformValues: [...(own as string[])] };
  };
  switch (value.kind) {
    case 'text':
      if (typeof v === 'string') return { kind: 'text', value: v };
      break;
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return { kind: 'number', value: v };
      break;
    case 'boolean':
      if (typeof v === 'boolean') return { kind: 'boolean', value: v };
      break;
    case 'selected':
      if (typeof v === 'string') return { kind: 'selected', value: v, ...freeformValues() };
      break;
    case 'selected-many':
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return { kind: 'selected-many', value: [...(v as string[])], ...freeformValues() };
      break;
    default:
      throw new RequestShapeError(`${path}.kind`, `must be text, number, boolean, selected or selected-many, not ${JSON.stringify(value.kind)}`);
  }
  throw new RequestShapeError(`${path}.value`, `does not fit the kind ${String(value.kind)}`);
}

/** An answer from the caller, checked field by field: a copy in the public shape. */
export function fromLiveAnswer(answer: unknown, path = 'answer'): LiveAnswer {
  if (!isRecord(answer)) throw new RequestShapeError(path, 'must be { state, value? }');
  if (answer.state === 'skipped') return { state: 'skipped' };
  if (answer.state !== 'draft' && answer.state !== 'submitted') throw new RequestShapeError(`${path}.state`, 'must be draft, submitted or skipped');
  return { state: answer.state, value: answerValue(answer.value, `${path}.value`) };
}

export function fromLiveAnswers(answers: unknown): Record<string, LiveAnswer> {
  if (answers === undefined) return {};
  if (!isRecord(answers)) throw new RequestShapeError('answers', 'must be an object keyed by question id');
  const out: Record<string, LiveAnswer> = {};
  for (const [id, answer] of Object.entries(answers)) Object.defineProperty(out, id, { value: fromLiveAnswer(answer, `answers.${id}`), enumerable: true });
  return out;
}

/** A store answer for the caller: a copy, nothing of ours shared. */
export function toLiveAnswer(answer: Answer): LiveAnswer {
  if (answer.state === 'skipped') return { state: 'skipped' };
  const { value } = answer;
  return { state: answer.state, value: value.kind === 'selected-many' ? { kind: value.kind, value: [...value.value] } : { ...value } };
}

/** A caller's answer in the store's terms, where its question takes no answer of the person's own. */
export function toStoreAnswer(answer: LiveAnswer, path: string): Answer {
  if (answer.state === 'skipped') return answer;
  const { value } = answer;
  if ((value.kind === 'selected' || value.kind === 'selected-many') && value.freeformValues !== undefined) {
    throw new RequestShapeError(`${path}.value.freeformValues`, 'the question does not take answers of the person\'s own (allowFreeformInput)');
  }
  return { state: answer.state, value: value.kind === 'selected-many' ? { kind: value.kind, value: [...value.value] } : ({ kind: value.kind, value: value.value } as AnswerValue) };
}

/**
 * One request's answers, the caller's way and the store's: a select question with the
 * person's own answer is two questions in the store (freeform.ts), every other one itself.
 */
export class RequestAnswers {
  constructor(private readonly own: ReadonlyMap<string, OwnAnswerQuestion>) {}

  /** The store's answers for the caller's answer to one question (undefined clears). */
  toStore(questionId: string, answer: LiveAnswer | undefined, path = 'answer'): Array<[string, Answer | undefined]> {
    const pair = this.own.get(questionId);
    if (!pair) return [[questionId, answer && toStoreAnswer(answer, path)]];
    const [select, own] = splitOwnAnswer(answer);
    return [[questionId, select], [pair.id, own]];
  }

  /** The caller's question a store question belongs to. */
  callerQuestion(storeQuestionId: string): string {
    for (const [selectId, pair] of this.own) if (pair.id === storeQuestionId) return selectId;
    return storeQuestionId;
  }

  answerOf(answers: Answers, questionId: string): LiveAnswer | undefined {
    const pair = this.own.get(questionId);
    if (!pair) {
      const answer = ownAnswer(answers, questionId);
      return answer && toLiveAnswer(answer);
    }
    return joinOwnAnswer(pair, ownAnswer(answers, questionId), ownAnswer(answers, pair.id));
  }

  /** Every answer, the caller's way. */
  all(answers: Answers): Record<string, LiveAnswer> {
    const out: Record<string, LiveAnswer> = {};
    for (const id of new Set(Object.keys(answers).map((k) => this.callerQuestion(k)))) {
      const answer = this.answerOf(answers, id);
      if (answer) Object.defineProperty(out, id, { value: answer, enumerable: true });
    }
    return out;
  }

  /** Required selects answered neither way, beside their options. */
  missing(answers: Answers): FieldError[] {
    return [...this.own]
      .filter(([selectId, pair]) => ownAnswerMissing(pair, ownAnswer(answers, selectId), ownAnswer(answers, pair.id)))
      .map(([selectId]) => ({ questionId: selectId, message: 'Choose an option, or type your own answer below.' }));
  }
}
