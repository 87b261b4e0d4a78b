/**
 * A permission's choices in our words, whoever offers them: each allows or refuses, once or
 * lastingly ("always", "for this session"). Named as the asker names them, with two
 * corrections: a lasting choice whose name does not say so gets " (always)" (the person
 * must know the answer lasts), and a name that says the opposite of what the choice does
 * ("Reject" that allows for good) gives way to our words for what it does, the asker's name
 * quoted beside them. Which choice is the default (a refusal, never an allow), which one a
 * "no" stands for, and what was chosen in the words the History says. Pure.
 */

export interface PermissionChoice {
  /** The asker's id for it, what goes back when it is chosen. */
  readonly id: string;
  /** The asker's name for it; absent or blank: our words for what it does. */
  readonly name?: string;
  readonly allows: boolean;
  /** It lasts beyond this call (always, for the session): the asker remembers it. */
  readonly lasts: boolean;
}

/** What was chosen, as the History says it. */
export type ChosenWords = 'allowed once' | 'allowed always' | 'refused' | 'refused always';

/** Our words for what a choice does. */
export function choiceWords(choice: Pick<PermissionChoice, 'allows' | 'lasts'>): string {
  if (choice.allows) return choice.lasts ? 'Always allow' : 'Allow once';
  return choice.lasts ? 'Always reject' : 'Reject';
}

/** What was chosen, in the History's words. */
export function chosenWords(choice: Pick<PermissionChoice, 'allows' | 'lasts'>): ChosenWords {
  if (choice.allows) return choice.lasts ? 'allowed always' : 'allowed once';
  return choice.lasts ? 'refused always' : 'refused';
}

/** The first words of a choice's name, past "always" or "just": what it says it does. */
const SAYS_ALLOW = /^(?:allow|yes|approve|accept|permit|grant|ok|okay|proceed|continue|run|confirm|trust)\b/i;
const SAYS_REJECT = /^(?:reject|deny|no|decline|refuse|disallow|don'?t|do not|never|cancel|block|skip|stop|abort|forbid)\b/i;
const SAYS_ALWAYS = /\b(?:always|forever|never|permanently|from now on|don'?t ask again)\b/i;
const SAYS_ONCE = /\b(?:once|this time|just this|only this)\b/i;
/** A name that says how long it lasts: "always", or the session it lasts for. */
const SAYS_IT_LASTS = /\b(?:always|session)\b/i;

/** Whether the name says the opposite of what the choice does: allows where it refuses, once where it lasts, or the reverse. */
function contradicts(name: string, choice: PermissionChoice): boolean {
  const start = name.replace(/^(?:(?:always|once|just|only)[\s,]+)+/i, '');
  if (choice.allows ? SAYS_REJECT.test(start) && !SAYS_ALLOW.test(start) : SAYS_ALLOW.test(start) && !SAYS_REJECT.test(start)) return true;
  return choice.lasts ? SAYS_ONCE.test(name) && !SAYS_ALWAYS.test(name) : SAYS_ALWAYS.test(name) && !SAYS_ONCE.test(name);
}

/** Longest asker's name quoted beside our words. */
const QUOTED_NAME = 60;

/**
 * The choice's name as the asker gives it; a lasting choice that does not say so says it.
 * A name that says the opposite of what the choice does is not the choice's words: ours
 * are, with the asker's name quoted beside them.
 */
export function choiceLabel(choice: PermissionChoice): string {
  const name = typeof choice.name === 'string' ? choice.name.trim() : '';
  const words = choiceWords(choice);
  if (name !== '' && contradicts(name, choice)) {
    const quoted = name.length > QUOTED_NAME ? `${name.slice(0, QUOTED_NAME - 1)}…` : name;
    return `${words} (the agent named it "${quoted}")`;
  }
  const label = name === '' ? words : name;
  return choice.lasts && !SAYS_IT_LASTS.test(label) ? `${label} (always)` : label;
}

/** The choices, each id once (a repeated id could not tell the answers apart). */
export function distinctChoices(choices: readonly PermissionChoice[]): PermissionChoice[] {
  const seen = new Set<string>();
  return choices.filter((c) => !seen.has(c.id) && seen.add(c.id));
}

/** The choice a "no" stands for: the first one-time refusal, else none (a lasting refusal is the person's own choice). */
export function refusal(choices: readonly PermissionChoice[]): PermissionChoice | undefined {
  return choices.find((c) => !c.allows && !c.lasts);
}

/** The default: a refusal, one-time first; never a choice that allows. */
export function defaultChoice(choices: readonly PermissionChoice[]): PermissionChoice | undefined {
  return refusal(choices) ?? choices.find((c) => !c.allows);
}
