/**
 * An answer as a summary shows it (the step-by-step review, the history): option titles for choices,
 * Yes or No, and a mask for secret-looking answers, whose length is not told either.
 * Free of `vscode`, so it is unit tested.
 */
import type { ContentValue, Question } from './model';

export const MASKED = '••••••••';

export function shownAnswer(question: Question, value: ContentValue | undefined): string {
  if (value === undefined) return '(empty)';
  if (question.looksSecret) return MASKED;
  return Array.isArray(value) ? value.map((v) => labelOf(question, v)).join(', ') : labelOf(question, value);
}

function labelOf(question: Question, value: ContentValue): string {
  if (question.kind === 'single-select' || question.kind === 'multi-select') {
    return question.options.find((o) => o.value === value)?.label ?? String(value);
  }
  if (question.kind === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}
