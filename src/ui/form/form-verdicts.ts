/**
 * What the host makes of the form page's messages, apart from VS Code (so it is unit
 * tested). The page is not trusted: a message about a form it was not shown is ignored,
 * and its answers are read again with the same validation module the page runs.
 */
import type { Answer, Answers, Question } from '../../elicitation/model';
import { readField, requiredMessage, toAnswerValue } from '../../elicitation/validation';
import type { DraftValue } from '../../shared/protocol';

/**
 * True when a message is about the form the page shows now. A page only learns a request
 * id by being shown its form: anything else is stale (the host moved on) or made up.
 */
export function isAboutShownForm(messageRequestId: string, currentRequestId: string | undefined, shownRequestId: string | undefined): boolean {
  return currentRequestId !== undefined && messageRequestId === currentRequestId && messageRequestId === shownRequestId;
}

export type SubmissionVerdict =
  | { readonly ok: true; readonly answers: Answers }
  | { readonly ok: false; readonly refusals: Readonly<Record<string, string>> };

/** A submission read field by field: the answers to send, or why each wrong field is refused. */
export function judgeSubmission(questions: readonly Question[], values: Readonly<Record<string, DraftValue | null>>): SubmissionVerdict {
  const answers: Record<string, Answer> = {};
  const refusals: Record<string, string> = {};
  // defineProperty: a field named "__proto__" stays a field.
  const set = (target: Record<string, unknown>, key: string, value: unknown): void => {
    Object.defineProperty(target, key, { value, enumerable: true });
  };
  for (const question of questions) {
    // Keys the form does not have are never read; a missing one is an empty field.
    const raw = Object.prototype.hasOwnProperty.call(values, question.id) ? values[question.id] : null;
    const read = readField(question, raw);
    if (!read.ok) set(refusals, question.id, read.message);
    else if (read.value !== undefined) set(answers, question.id, { state: 'submitted', value: toAnswerValue(question, read.value) });
    else if (question.required) set(refusals, question.id, requiredMessage(question));
    else set(answers, question.id, { state: 'skipped' });
  }
  return Object.keys(refusals).length > 0 ? { ok: false, refusals } : { ok: true, answers };
}

/**
 * A draft as the store keeps it: a well-typed value, or nothing for an emptied field.
 * Text that does not parse yet is not stored (the panel keeps it as typed).
 */
export function storableDraft(question: Question, value: DraftValue | null): { readonly store: false } | { readonly store: true; readonly answer?: Answer } {
  const read = readField(question, value);
  if (!read.ok) return { store: false };
  return read.value === undefined ? { store: true } : { store: true, answer: { state: 'draft', value: toAnswerValue(question, read.value) } };
}
