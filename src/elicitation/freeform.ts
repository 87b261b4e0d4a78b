/**
 * A select question of a live request with `allowFreeformInput`: the person may choose an
 * option, type an answer of their own, or both. The form and the quick input know no such
 * question (MCP's schemas have none), so the own answer is a text question of its own, asked
 * right after the options; here the two answers become the protocol's one and back:
 * chosen + typed is `{ kind: 'selected' | 'selected-many', value, freeformValues }`, typed
 * alone a single-select's `{ kind: 'text' }` (a multi-select's `value: []`). Pure.
 */
import type { Answer } from './model';
import type { LiveAnswer, LiveQuestion } from './live-model';

/** The text question that holds a select question's own answer. */
export interface OwnAnswerQuestion {
  readonly id: string;
  readonly multi: boolean;
  /** The select question is required: one of the two answers it. */
  readonly required: boolean;
}

/** Its id: beside the select's, and refused if the request already uses it. */
export function ownAnswerId(selectId: string): string {
  return `${selectId} (own answer)`;
}

export function ownAnswerProperty(question: LiveQuestion): Record<string, unknown> {
  const multi = question.kind === 'multi-select';
  return {
    type: 'string',
    title: `${question.title ?? question.id}: your own answer`,
    description: multi ? 'Besides the options above, or instead of them; separate several with commas.' : 'Instead of an option above, or to add to it.',
  };
}

/** The values typed as a select's own answer: the text, or a multi-select's comma-separated values; none when blank. */
export function typedValues(typed: string, multi: boolean): string[] {
  const text = typed.trim();
  if (text === '') return [];
  return multi ? text.split(',').map((v) => v.trim()).filter((v) => v !== '') : [text];
}

function ownValues(pair: OwnAnswerQuestion, own: Answer | undefined): string[] {
  if (!own || own.state === 'skipped' || own.value.kind !== 'text') return [];
  return typedValues(own.value.value, pair.multi);
}

/** The protocol's answer from the store's two; undefined when neither is there. */
export function joinOwnAnswer(pair: OwnAnswerQuestion, select: Answer | undefined, own: Answer | undefined): LiveAnswer | undefined {
  const typed = ownValues(pair, own);
  const state = (a: Answer | undefined): 'draft' | 'submitted' => (a && a.state === 'submitted' ? 'submitted' : 'draft');
  if (select && select.state !== 'skipped') {
    const { value } = select;
    if (typed.length === 0) return { state: select.state, value: value.kind === 'selected-many' ? { kind: 'selected-many', value: [...value.value] } : { ...value } };
    const both = state(select) === 'submitted' && state(own) === 'submitted' ? 'submitted' : 'draft';
    if (value.kind === 'selected') return { state: both, value: { kind: 'selected', value: value.value, freeformValues: typed } };
    if (value.kind === 'selected-many') return { state: both, value: { kind: 'selected-many', value: [...value.value], freeformValues: typed } };
  }
  if (typed.length > 0) {
    return pair.multi ? { state: state(own), value: { kind: 'selected-many', value: [], freeformValues: typed } } : { state: state(own), value: { kind: 'text', value: typed[0] } };
  }
  return select?.state === 'skipped' ? { state: 'skipped' } : undefined;
}

/** The store's two answers (the select's, the own one's) from the protocol's one; undefined clears. */
export function splitOwnAnswer(answer: LiveAnswer | undefined): [Answer | undefined, Answer | undefined] {
  if (!answer) return [undefined, undefined];
  if (answer.state === 'skipped') return [answer, undefined];
  const { state, value } = answer;
  if (value.kind === 'text') return [undefined, { state, value: { kind: 'text', value: value.value } }];
  if (value.kind !== 'selected' && value.kind !== 'selected-many') return [{ state, value }, undefined];
  const typed = value.freeformValues?.filter((v) => v.trim() !== '') ?? [];
  const own: Answer | undefined = typed.length > 0 ? { state, value: { kind: 'text', value: typed.join(', ') } } : undefined;
  const chose = value.kind === 'selected' ? value.value !== '' : true;
  const select: Answer | undefined = !chose ? undefined : value.kind === 'selected' ? { state, value: { kind: 'selected', value: value.value } } : { state, value: { kind: 'selected-many', value: [...value.value] } };
  return [select, own];
}

/** A required select question with neither an option chosen nor an own answer typed. */
export function ownAnswerMissing(pair: OwnAnswerQuestion, select: Answer | undefined, own: Answer | undefined): boolean {
  if (!pair.required) return false;
  const chose = select !== undefined && select.state !== 'skipped' && (select.value.kind !== 'selected-many' || select.value.value.length > 0);
  return !chose && ownValues(pair, own).length === 0;
}
