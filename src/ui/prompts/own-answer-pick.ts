/**
 * One select question that takes the person's own answer (a live request's
 * `allowFreeformInput`; presentations `pick-other` and `pick-many-other`): a quick pick of
 * its options plus "Other…", which opens an input box for that answer (a multi-select's:
 * comma-separated values, beside the options ticked). The box's Back button returns to the
 * pick; Escape cancels the question, as in VS Code's own multi-step quick inputs, where
 * Escape closes the whole flow and Back is the way back (and the API cannot tell Escape
 * from any other hiding). What the person ticks and types is the store's draft as they go,
 * the form's way, so whoever follows the request sees it; the answer sent sets both of the
 * store's questions, so a leftover draft never joins it (freeform.ts joins them for the asker).
 */
import type { Answer, Answers, ContentValue, MultiSelectQuestion, Question, SingleSelectQuestion, TextQuestion } from '../../elicitation/model';
import { typedValues } from '../../elicitation/freeform';
import { toAnswerValue } from '../../elicitation/validation';
import type { PromptFrame, StepResult } from '../quick-input/quick-input-frame';
import { askInput, askPick, askPickMany } from './quick-prompts';

/** The request's drafts, one question at a time (the store's, through StepByStep). */
export interface Drafts {
  draftOf(question: Question): ContentValue | undefined;
  /** Undefined clears it. */
  saveDraft(question: Question, value: ContentValue | undefined): void;
}

export interface OwnAnswerQuestions {
  readonly select: SingleSelectQuestion | MultiSelectQuestion;
  /** The text question right after it that holds the own answer. */
  readonly own: TextQuestion;
  /** One of the two must be answered. */
  readonly required: boolean;
}

/** Accepted with answers to both questions, or ended otherwise (declined, cancelled, deferred, aborted). */
export type OwnAnswerEnd = { readonly kind: 'answers'; readonly answers: Answers } | Exclude<StepResult, { kind: 'value' | 'other' | 'back' }>;

function answered(questions: OwnAnswerQuestions, chosen: ContentValue | undefined, typed: string | undefined): OwnAnswerEnd {
  const { select, own } = questions;
  const answer = (question: Question, value: ContentValue | undefined): Answer =>
    value === undefined ? { state: 'skipped' } : { state: 'submitted', value: toAnswerValue(question, value) };
  return { kind: 'answers', answers: { [select.id]: answer(select, chosen), [own.id]: answer(own, typed) } };
}

/** The box for the own answer: required once Other… is chosen, and never blank. */
function askOwnText(questions: OwnAnswerQuestions, frame: PromptFrame, drafts: Drafts, onChange: (text: string) => void): Promise<StepResult> {
  const multi = questions.select.kind === 'multi-select';
  // Its title says whose own answer it is ("Room: your own answer"); the form's description speaks of the options above it.
  const { description: _above, ...own } = questions.own;
  const asked: TextQuestion = { ...own, required: true, ...(multi && { description: 'separate several with commas' }) };
  return askInput(asked, { ...frame, canGoBack: true }, drafts.draftOf(questions.own), undefined, {
    check: (value) => (typedValues(typeof value === 'string' ? value : '', multi).length === 0 ? `type ${multi ? 'at least one value' : 'your answer'}, or go back to the options` : undefined),
    onChange,
  });
}

/** How a step with no answer ends the question (Back and Other… never end it: they are handled where they come). */
function ended(result: StepResult): OwnAnswerEnd {
  return result.kind === 'value' || result.kind === 'other' || result.kind === 'back' ? { kind: 'cancel' } : result;
}

function textOf(value: ContentValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A single-select: an option, Leave empty (optional ones), or Other… and the box. */
async function askSingle(questions: OwnAnswerQuestions, frame: PromptFrame, drafts: Drafts): Promise<OwnAnswerEnd> {
  const { select, own, required } = questions;
  for (;;) {
    const picked = await askPick({ ...select, required }, frame, drafts.draftOf(select), { chosen: drafts.draftOf(own) !== undefined });
    if (picked.kind === 'value') return answered(questions, picked.value, undefined);
    if (picked.kind !== 'other') return ended(picked);
    // Their own answer instead of an option: a draft option would misreport it.
    if (drafts.draftOf(select) !== undefined) drafts.saveDraft(select, undefined);
    const typed = await askOwnText(questions, frame, drafts, (text) => drafts.saveDraft(own, text === '' ? undefined : text));
    if (typed.kind === 'back') continue;
    if (typed.kind === 'value') return answered(questions, undefined, textOf(typed.value));
    return ended(typed);
  }
}

/** A multi-select: options ticked, Other… ticked too (then the box), or none (optional ones). */
async function askMany(questions: OwnAnswerQuestions & { readonly select: MultiSelectQuestion }, frame: PromptFrame, drafts: Drafts): Promise<OwnAnswerEnd> {
  const { select, own, required } = questions;
  // What was typed is kept while Other… is unticked (its draft is cleared then: it would not be sent).
  let typed = textOf(drafts.draftOf(own));
  let otherTicked = typed !== undefined;
  // Only what changed is told: each draft is a change the asker hears of.
  const save = (question: Question, value: ContentValue | undefined): void => {
    if (JSON.stringify(value) !== JSON.stringify(drafts.draftOf(question))) drafts.saveDraft(question, value);
  };
  const tickOther = (ticked: boolean): void => {
    otherTicked = ticked;
    save(own, ticked ? typed : undefined);
  };
  for (;;) {
    const picked = await askPickMany({ ...select, required }, frame, drafts.draftOf(select), {
      chosen: otherTicked,
      onChange: (values, other) => {
        save(select, values.length > 0 ? [...values] : undefined);
        tickOther(other);
      },
    });
    if (picked.kind === 'value') return answered(questions, picked.value, undefined);
    if (picked.kind !== 'other') return ended(picked);
    tickOther(true);
    const result = await askOwnText(questions, frame, drafts, (text) => {
      typed = text === '' ? undefined : text;
      drafts.saveDraft(own, typed);
    });
    if (result.kind === 'back') continue;
    if (result.kind === 'value') return answered(questions, picked.value, textOf(result.value));
    return ended(result);
  }
}

/** Asks the select and its own answer as one question. */
export function askSelectOrOwn(questions: OwnAnswerQuestions, frame: PromptFrame, drafts: Drafts): Promise<OwnAnswerEnd> {
  const { select } = questions;
  return select.kind === 'multi-select' ? askMany({ ...questions, select }, frame, drafts) : askSingle(questions, frame, drafts);
}
