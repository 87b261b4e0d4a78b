/**
 * Checks and coerces answers against the question model, with one human message per
 * field. The extension host and the webview both run this module, so the person sees
 * exactly the verdict the host will reach.
 */
import { testFormat } from './formats';
import {
  ANSWER_KIND_FOR,
  type Answer,
  type Answers,
  type AnswerValue,
  type Content,
  type ContentValue,
  type FormModel,
  type Question,
  type TextFormat,
} from './model';
import { testPattern } from './pattern';

export type Check<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

export interface FieldError {
  readonly questionId: string;
  readonly message: string;
}

const FORMAT_EXAMPLES: Record<TextFormat, string> = {
  email: 'an email address, like name@example.com',
  uri: 'a URI, like https://example.com/page',
  date: 'a date, like 2026-11-22',
  'date-time': 'a date and time with a time zone, like 2026-11-22T14:30:00Z',
};

/** Length as JSON Schema counts it: in code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function rangeMessage(title: string, min: number | undefined, max: number | undefined, unit?: string): string {
  const u = (n: number): string => (unit ? plural(n, unit) : String(n));
  if (min !== undefined && max !== undefined) {
    return min === max
      ? `${title} must be exactly ${u(min)}`
      : `${title} must be between ${min} and ${u(max)}`;
  }
  return min !== undefined ? `${title} must be at least ${u(min)}` : `${title} must be at most ${u(max!)}`;
}

function listLabels(question: Extract<Question, { options: unknown }>): string {
  const labels = question.options.map((o) => o.label);
  return labels.length <= 6 ? labels.join(', ') : `${labels.slice(0, 5).join(', ')} or another listed option`;
}

/**
 * Checks one present value (never empty or missing) of the type the question's content
 * takes. Returns the human message, or undefined when the value is fine.
 */
export function checkValue(question: Question, value: unknown): string | undefined {
  const title = question.title;
  switch (question.kind) {
    case 'text': {
      if (typeof value !== 'string') return `${title} must be text`;
      const length = codePointLength(value);
      const { minLength: min, maxLength: max } = question;
      if ((min !== undefined && length < min) || (max !== undefined && length > max)) {
        return rangeMessage(title, min, max, 'character');
      }
      // 'unchecked' (the page without its checks bundle): the host's check on submit decides.
      if (question.format && testFormat(question.format, value) === 'no-match') {
        return `${title} must be ${FORMAT_EXAMPLES[question.format]}`;
      }
      if (question.pattern !== undefined) {
        const outcome = testPattern(question.pattern, value);
        if (outcome === 'no-match') return `${title} must match the pattern ${question.pattern}`;
        if (outcome === 'too-complex') {
          return `${title} could not be checked against its pattern in reasonable time; try a shorter answer`;
        }
        // 'unchecked' (the page without its matcher): the host's check on submit decides.
      }
      return undefined;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${title} must be a number`;
      if (question.kind === 'integer' && !Number.isInteger(value)) return `${title} must be a whole number`;
      const { minimum: min, maximum: max } = question;
      if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
        return rangeMessage(title, min, max);
      }
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${title} must be yes or no`;
    case 'single-select':
      return typeof value === 'string' && question.options.some((o) => o.value === value)
        ? undefined
        : `${title} must be one of: ${listLabels(question)}`;
    case 'multi-select': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
        return `${title} must be a list of choices`;
      }
      const unknown = value.find((v) => !question.options.some((o) => o.value === v));
      if (unknown !== undefined) return `${title} has a choice that is not offered: ${JSON.stringify(unknown)}`;
      if (new Set(value).size !== value.length) return `${title} lists a choice twice`;
      const { minItems: min, maxItems: max } = question;
      if ((min !== undefined && value.length < min) || (max !== undefined && value.length > max)) {
        return `${title}: choose ${
          min !== undefined && max !== undefined
            ? min === max
              ? `exactly ${min}`
              : `between ${min} and ${max}`
            : min !== undefined
              ? `at least ${min}`
              : `at most ${max}`
        }`;
      }
      return undefined;
    }
  }
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Turns what a person typed into the value the question takes (a number for a number
 * field), and checks it. Empty text gives `undefined`: no answer.
 */
export function parseTypedText(question: Question, rawText: string): Check<ContentValue | undefined> {
  const text = question.kind === 'text' ? rawText : rawText.trim();
  if (text === '') return { ok: true, value: undefined };
  let value: ContentValue;
  switch (question.kind) {
    case 'text':
      value = text;
      break;
    case 'number':
    case 'integer':
      if (!DECIMAL.test(text)) {
        return { ok: false, message: `${question.title} must be ${question.kind === 'integer' ? 'a whole number' : 'a number'}` };
      }
      value = Number(text);
      break;
    case 'boolean': {
      const lower = text.toLowerCase();
      if (['true', 'yes', 'y'].includes(lower)) value = true;
      else if (['false', 'no', 'n'].includes(lower)) value = false;
      else return { ok: false, message: `${question.title} must be yes or no` };
      break;
    }
    case 'single-select': {
      const option = question.options.find((o) => o.value === text) ?? question.options.find((o) => o.label === text);
      value = option ? option.value : text;
      break;
    }
    case 'multi-select':
      value = text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .map((part) => question.options.find((o) => o.label === part)?.value ?? part);
      break;
  }
  const message = checkValue(question, value);
  return message === undefined ? { ok: true, value } : { ok: false, message };
}

/**
 * A field's value as a form holds it (raw text from a text box, a typed value from a
 * checkbox or a choice, or nothing) turned into the value the question takes, checked.
 * The page and the host both read fields with this, so they cannot disagree.
 */
export function readField(question: Question, raw: string | number | boolean | readonly string[] | null | undefined): Check<ContentValue | undefined> {
  if (raw === null || raw === undefined) return { ok: true, value: undefined };
  if (typeof raw === 'string' && question.kind !== 'single-select') return parseTypedText(question, raw);
  if (Array.isArray(raw) && raw.length === 0) return { ok: true, value: undefined };
  const value: ContentValue = Array.isArray(raw) ? [...raw] : (raw as string | number | boolean);
  const message = checkValue(question, value);
  return message === undefined ? { ok: true, value } : { ok: false, message };
}

export function requiredMessage(question: Question): string {
  return `${question.title} is required`;
}

/** The answer value that carries a content value for this question. */
export function toAnswerValue(question: Question, value: ContentValue): AnswerValue {
  switch (ANSWER_KIND_FOR[question.kind]) {
    case 'text':
      return { kind: 'text', value: value as string };
    case 'number':
      return { kind: 'number', value: value as number };
    case 'boolean':
      return { kind: 'boolean', value: value as boolean };
    case 'selected':
      return { kind: 'selected', value: value as string };
    case 'selected-many':
      // Copied when it is a list; anything else is left for answerFits to refuse.
      return { kind: 'selected-many', value: Array.isArray(value) ? [...value] : (value as never) };
  }
}

export function fromAnswerValue(answer: AnswerValue): ContentValue {
  return answer.kind === 'selected-many' ? [...answer.value] : answer.value;
}

/** True when the answer value's kind and type fit the question. */
export function answerFits(question: Question, answer: Answer): boolean {
  if (answer.state === 'skipped') return true;
  const { kind, value } = answer.value as { kind: string; value: unknown };
  if (kind !== ANSWER_KIND_FOR[question.kind]) return false;
  switch (kind) {
    case 'text':
    case 'selected':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
}

/** The default a question offers, as a content value. */
export function defaultOf(question: Question): ContentValue | undefined {
  const value = question.defaultValue;
  return Array.isArray(value) ? [...value] : (value as ContentValue | undefined);
}

/** The answer to a question; a field named like an Object member must not find the member. */
export function ownAnswer(answers: Answers, questionId: string): Answer | undefined {
  return Object.prototype.hasOwnProperty.call(answers, questionId) ? answers[questionId] : undefined;
}

export interface ContentOptions {
  /** Fill a field the person left empty with its schema default (the client's `applyDefaults`). */
  readonly applyDefaults: boolean;
}

function isEmptyValue(value: ContentValue): boolean {
  return value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * Builds the `content` of an accepted form from the submitted answers, in question order.
 * Skipped and empty answers are left out (or take their default); drafts do not count.
 */
export function buildContent(
  form: FormModel,
  answers: Answers,
  options: ContentOptions,
): { ok: true; content: Content } | { ok: false; errors: FieldError[] } {
  const entries: Array<[string, ContentValue]> = [];
  const errors: FieldError[] = [];
  for (const question of form.questions) {
    const answer = ownAnswer(answers, question.id);
    let value: ContentValue | undefined;
    if (answer && answer.state === 'submitted') {
      if (!answerFits(question, answer)) {
        errors.push({ questionId: question.id, message: `${question.title} has an answer of the wrong kind` });
        continue;
      }
      value = fromAnswerValue(answer.value);
      if (isEmptyValue(value) && !(question.kind === 'multi-select' && question.minItems === 0)) value = undefined;
    }
    if (value === undefined && options.applyDefaults) value = defaultOf(question);
    if (value === undefined) {
      if (question.required) errors.push({ questionId: question.id, message: requiredMessage(question) });
      continue;
    }
    const message = checkValue(question, value);
    if (message !== undefined) errors.push({ questionId: question.id, message });
    else entries.push([question.id, value]);
  }
  // fromEntries defines own properties, so a field named "__proto__" stays a field.
  return errors.length > 0 ? { ok: false, errors } : { ok: true, content: Object.fromEntries(entries) };
}
