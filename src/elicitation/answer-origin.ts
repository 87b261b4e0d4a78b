/**
 * Where a change of an answer comes from, and the one rule of drafts that follows: every
 * surface and every asker puts its changes into the input store with its origin, and the
 * store (store.ts) applies this rule, so no surface keeps a flag of its own to tell its own
 * changes from another's. What the person typed wins:
 *
 * - a draft from anyone but the person (the extension that asked, another client of an
 *   agent host) never overwrites a question the person changed since it opened;
 * - a question that asks for a secret (`looksSecret`, masked in the History) takes answers
 *   from the person only: a value the masked field hides is never one they did not type.
 *
 * The extension that asked may set drafts of its own request's other questions (the API's
 * `updateDraft`: the open form shows them at once, docs/api.md); the form page's focus rule
 * keeps the field the person is in. Pure.
 */
import type { Question } from './model';

/**
 * `page`: the person, in the form page. `quick-input`: the person, in the quick input (step
 * by step, a pick with their own answer). `asker`: the extension that asked (requestInput's
 * `updateDraft`, its starting answers). `remote-client`: another client of the agent host
 * that asked (its drafts and answers, and the answers the host's request brings).
 * Answering from another device (issue 57) is one more: a name here and a line in ORIGINS.
 */
export type AnswerOrigin = 'page' | 'quick-input' | 'asker' | 'remote-client';

export interface OriginTraits {
  /** The person's own change: the question is theirs from then on. */
  readonly person: boolean;
  /** Its drafts give way to a change of the person's. */
  readonly yieldsToPerson: boolean;
}

export const ORIGINS: Readonly<Record<AnswerOrigin, OriginTraits>> = {
  page: { person: true, yieldsToPerson: false },
  'quick-input': { person: true, yieldsToPerson: false },
  asker: { person: false, yieldsToPerson: true },
  'remote-client': { person: false, yieldsToPerson: true },
};

/** Nobody has changed anything yet (a request as it opens). */
export const NONE_CHANGED: ReadonlySet<string> = new Set();

/**
 * Why a change from `origin` may not go into `question` now, or undefined when it may.
 * `changedByPerson`: the questions the person has changed since the request opened.
 */
export function refusedFrom(origin: AnswerOrigin, question: Question, changedByPerson: ReadonlySet<string>): string | undefined {
  const traits = ORIGINS[origin];
  if (traits.person) return undefined;
  if (question.looksSecret) return `${question.id} asks for a secret: only the person's own answer goes into it`;
  if (traits.yieldsToPerson && changedByPerson.has(question.id)) return `the person changed ${question.id} since it opened: a draft from elsewhere does not overwrite it`;
  return undefined;
}
