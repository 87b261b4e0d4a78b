/** An input request on the wire: its questions (every kind AHP has), its answers, and how it is completed; checked. Pure. */
import { LIMITS } from '../../elicitation/limits';
import { TEXT_FORMATS, type TextFormat } from '../../elicitation/model';
import { overLimit } from '../../elicitation/schema';
import { AHP_LIMITS } from './names';
import { fail, finite, id, list, optional, record, text } from './check';

export interface WireOption {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly recommended?: boolean;
}

interface WireQuestionBase {
  readonly id: string;
  readonly title?: string;
  /** What is asked (AHP's `message`). */
  readonly message: string;
  readonly required?: boolean;
}

export type WireQuestion =
  | (WireQuestionBase & { readonly kind: 'text'; readonly format?: TextFormat; readonly min?: number; readonly max?: number; readonly defaultValue?: string })
  | (WireQuestionBase & { readonly kind: 'number' | 'integer'; readonly min?: number; readonly max?: number; readonly defaultValue?: number })
  | (WireQuestionBase & { readonly kind: 'boolean'; readonly defaultValue?: boolean })
  | (WireQuestionBase & { readonly kind: 'single-select'; readonly options: readonly WireOption[]; readonly allowFreeformInput?: boolean; readonly defaultValue?: string })
  | (WireQuestionBase & { readonly kind: 'multi-select'; readonly options: readonly WireOption[]; readonly allowFreeformInput?: boolean; readonly min?: number; readonly max?: number; readonly defaultValue?: readonly string[] });

/** An answer's value on the wire (a select's own answer as `freeformValues`, or a single-select's `text`). */
export type WireAnswerValue =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'selected'; readonly value: string; readonly freeformValues?: readonly string[] }
  | { readonly kind: 'selected-many'; readonly value: readonly string[]; readonly freeformValues?: readonly string[] };

export type WireAnswer = { readonly state: 'draft' | 'submitted'; readonly value: WireAnswerValue } | { readonly state: 'skipped' };

export interface WireInputRequest {
  readonly id: string;
  readonly message?: string;
  readonly url?: string;
  readonly questions: readonly WireQuestion[];
  readonly answers: Readonly<Record<string, WireAnswer>>;
}

export type InputResponse = 'accept' | 'decline' | 'cancel';

function readOption(v: unknown, path: string): WireOption {
  const o = record(v, path);
  const description = optional(o.description, (x) => text(x, `${path}.description`));
  return { id: id(o.id, `${path}.id`), label: text(o.label, `${path}.label`, AHP_LIMITS.labelChars), ...(description !== undefined && { description }), ...(o.recommended === true && { recommended: true }) };
}

function bound(q: Record<string, unknown>, path: string): { min?: number; max?: number } {
  const min = optional(q.min, (x) => finite(x, `${path}.min`));
  const max = optional(q.max, (x) => finite(x, `${path}.max`));
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}

function readQuestion(v: unknown, path: string): WireQuestion {
  const q = record(v, path);
  const title = optional(q.title, (x) => text(x, `${path}.title`, AHP_LIMITS.labelChars));
  const base: WireQuestionBase = { id: id(q.id, `${path}.id`), ...(title !== undefined && { title }), message: text(q.message ?? '', `${path}.message`), ...(q.required === true && { required: true }) };
  const freeform = q.allowFreeformInput === true ? { allowFreeformInput: true } : {};
  const options = (): WireOption[] => list(q.options, `${path}.options`, LIMITS.options, 'option', readOption);
  switch (q.kind) {
    case 'text': {
      // A format we do not know is left out: the answer is still text.
      const format = TEXT_FORMATS.find((f) => f === q.format);
      const defaultValue = optional(q.defaultValue, (x) => text(x, `${path}.defaultValue`, AHP_LIMITS.answerChars));
      return { ...base, kind: 'text', ...(format && { format }), ...bound(q, path), ...(defaultValue !== undefined && { defaultValue }) };
    }
    case 'number':
    case 'integer': {
      const defaultValue = optional(q.defaultValue, (x) => finite(x, `${path}.defaultValue`));
      return { ...base, kind: q.kind, ...bound(q, path), ...(defaultValue !== undefined && { defaultValue }) };
    }
    case 'boolean':
      return { ...base, kind: 'boolean', ...(typeof q.defaultValue === 'boolean' && { defaultValue: q.defaultValue }) };
    case 'single-select': {
      const defaultValue = optional(q.defaultValue, (x) => id(x, `${path}.defaultValue`));
      return { ...base, kind: 'single-select', options: options(), ...freeform, ...(defaultValue !== undefined && { defaultValue }) };
    }
    case 'multi-select': {
      const defaultValue = optional(q.defaultValue, (x) => list(x, `${path}.defaultValue`, LIMITS.options, 'option', id));
      return { ...base, kind: 'multi-select', options: options(), ...freeform, ...bound(q, path), ...(defaultValue !== undefined && { defaultValue }) };
    }
    default:
      return fail(`${path}.kind`, `must be text, number, integer, boolean, single-select or multi-select, not ${JSON.stringify(String(q.kind)).slice(0, 60)}`);
  }
}

function strings(v: unknown, path: string): string[] {
  return list(v, path, LIMITS.options, 'value', (x, p) => text(x, p, AHP_LIMITS.answerChars));
}

export function readAnswer(v: unknown, path: string): WireAnswer {
  const a = record(v, path);
  if (a.state === 'skipped') return { state: 'skipped' };
  if (a.state !== 'draft' && a.state !== 'submitted') fail(`${path}.state`, 'must be draft, submitted or skipped');
  const value = record(a.value, `${path}.value`);
  const at = `${path}.value.value`;
  const freeform = (): { freeformValues?: string[] } => (value.freeformValues === undefined ? {} : { freeformValues: strings(value.freeformValues, `${path}.value.freeformValues`) });
  const state = a.state;
  switch (value.kind) {
    case 'text':
      return { state, value: { kind: 'text', value: text(value.value, at, AHP_LIMITS.answerChars) } };
    case 'number':
      return { state, value: { kind: 'number', value: finite(value.value, at) } };
    case 'boolean':
      return typeof value.value === 'boolean' ? { state, value: { kind: 'boolean', value: value.value } } : fail(at, 'must be true or false');
    case 'selected':
      return { state, value: { kind: 'selected', value: text(value.value, at, AHP_LIMITS.idChars), ...freeform() } };
    case 'selected-many':
      return { state, value: { kind: 'selected-many', value: list(value.value, at, LIMITS.options, 'option', id), ...freeform() } };
    default:
      return fail(`${path}.value.kind`, 'must be text, number, boolean, selected or selected-many');
  }
}

export function readAnswers(v: unknown, path: string): Record<string, WireAnswer> {
  const out: Record<string, WireAnswer> = {};
  if (v === undefined || v === null) return out;
  const entries = Object.entries(record(v, path));
  if (entries.length > LIMITS.properties * 2) fail(path, overLimit(entries.length, LIMITS.properties * 2, 'answer', 'for a request'));
  // defineProperty: a question may be called "__proto__".
  for (const [key, answer] of entries) Object.defineProperty(out, id(key, `${path} key`), { value: readAnswer(answer, `${path}.${key.slice(0, 40)}`), enumerable: true });
  return out;
}

export function readInputRequest(v: unknown, path = 'request'): WireInputRequest {
  const r = record(v, path);
  const message = optional(r.message, (x) => text(x, `${path}.message`));
  const url = optional(r.url, (x) => text(x, `${path}.url`, 8_192));
  const questions = list(r.questions ?? [], `${path}.questions`, LIMITS.properties, 'question', readQuestion);
  return { id: id(r.id, `${path}.id`), ...(message !== undefined && { message }), ...(url !== undefined && { url }), questions, answers: readAnswers(r.answers, `${path}.answers`) };
}
