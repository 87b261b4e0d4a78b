/**
 * The Agent Host Protocol's live input request, as another extension hands it to us, in
 * the host's own terms and back: its questions as the flat schema the broker parses (so
 * they are validated and capped like a server's), its answers as the store's. The answer
 * shapes are the same on both sides; what comes in is checked field by field, since it
 * comes from another extension.
 */
import type { Answer, Answers, AnswerValue } from '../elicitation/model';
import type { InputAnswer, InputAnswerValue, InputQuestion, InputRequest } from '../../elicitation-host';
import { isRecord } from '../elicitation/is-record';

// The d.ts stands alone (extensions copy it), so it spells the answer values again: the
// compiler holds the two spellings equal.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const PUBLIC_ANSWERS_ARE_OURS: Equal<AnswerValue, InputAnswerValue> = true;

export class RequestShapeError extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
  }
}

/** One question as a JSON Schema property of the elicitation subset. */
function property(question: InputQuestion, path: string): Record<string, unknown> {
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

function options(list: unknown, path: string): Array<{ const: string; title: string }> {
  if (!Array.isArray(list) || list.length === 0) throw new RequestShapeError(`${path}.options`, 'must be a non-empty list');
  return list.map((o: unknown, i) => {
    if (!isRecord(o) || typeof o.id !== 'string' || typeof o.label !== 'string') throw new RequestShapeError(`${path}.options[${i}]`, 'must be { id: string, label: string }');
    return { const: o.id, title: o.label };
  });
}

/** The request as the broker's params: a link, or a form whose property keys are the question ids. */
export function toElicitParams(request: InputRequest): { message: string; requestedSchema: Record<string, unknown> } | { mode: 'url'; message: string; url: string } {
  if (!isRecord(request)) throw new RequestShapeError('request', 'must be an object');
  if (typeof request.message !== 'string') throw new RequestShapeError('message', 'must be a string');
  const questions = request.questions ?? [];
  if (!Array.isArray(questions)) throw new RequestShapeError('questions', 'must be a list');
  if (request.url !== undefined) {
    if (typeof request.url !== 'string') throw new RequestShapeError('url', 'must be a string');
    if (questions.length > 0) throw new RequestShapeError('url', 'a request with a link asks no questions here: send the questions as a second request');
    return { mode: 'url', message: request.message, url: request.url };
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  questions.forEach((q: unknown, i) => {
    const path = `questions[${i}]`;
    if (!isRecord(q) || typeof q.id !== 'string' || q.id === '') throw new RequestShapeError(`${path}.id`, 'must be a non-empty string');
    if (Object.prototype.hasOwnProperty.call(properties, q.id)) throw new RequestShapeError(`${path}.id`, `"${q.id}" is used twice`);
    Object.defineProperty(properties, q.id, { value: property(q as unknown as InputQuestion, path), enumerable: true });
    if (q.required === true) required.push(q.id);
  });
  return { message: request.message, requestedSchema: { type: 'object', properties, ...(required.length > 0 && { required }) } };
}

function answerValue(value: unknown, path: string): AnswerValue {
  if (!isRecord(value)) throw new RequestShapeError(path, 'must be { kind, value }');
  const v = value.value;
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
      if (typeof v === 'string') return { kind: 'selected', value: v };
      break;
    case 'selected-many':
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return { kind: 'selected-many', value: [...(v as string[])] };
      break;
    default:
      throw new RequestShapeError(`${path}.kind`, `must be text, number, boolean, selected or selected-many, not ${JSON.stringify(value.kind)}`);
  }
  throw new RequestShapeError(`${path}.value`, `does not fit the kind ${String(value.kind)}`);
}

/** An answer from the caller, in the store's terms. */
export function fromInputAnswer(answer: unknown, path = 'answer'): Answer {
  if (!isRecord(answer)) throw new RequestShapeError(path, 'must be { state, value? }');
  if (answer.state === 'skipped') return { state: 'skipped' };
  if (answer.state !== 'draft' && answer.state !== 'submitted') throw new RequestShapeError(`${path}.state`, 'must be draft, submitted or skipped');
  return { state: answer.state, value: answerValue(answer.value, `${path}.value`) };
}

export function fromInputAnswers(answers: unknown): Answers {
  if (answers === undefined) return {};
  if (!isRecord(answers)) throw new RequestShapeError('answers', 'must be an object keyed by question id');
  const out: Record<string, Answer> = {};
  for (const [id, answer] of Object.entries(answers)) Object.defineProperty(out, id, { value: fromInputAnswer(answer, `answers.${id}`), enumerable: true });
  return out;
}

/** A store answer for the caller: a copy, nothing of ours shared. */
export function toInputAnswer(answer: Answer): InputAnswer {
  if (answer.state === 'skipped') return { state: 'skipped' };
  const { value } = answer;
  return { state: answer.state, value: value.kind === 'selected-many' ? { kind: value.kind, value: [...value.value] } : { ...value } };
}

export function toInputAnswers(answers: Answers): Record<string, InputAnswer> {
  const out: Record<string, InputAnswer> = {};
  for (const [id, answer] of Object.entries(answers)) Object.defineProperty(out, id, { value: toInputAnswer(answer), enumerable: true });
  return out;
}
