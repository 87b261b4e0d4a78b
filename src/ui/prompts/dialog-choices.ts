/**
 * Which questions may take a modal at all (`mayUseModal`: never a background task's), and
 * which one-choice questions a modal dialog asks with one button per choice (a destructive
 * question of a call the person started: Run Tool, or their agent's own permission
 * request, which may offer only "Allow this time" beside Decline). A dialog draws a button's label on one line, drops descriptions and strips
 * "&&" (its mnemonic marker); a choice it would not show exactly, or more choices than a
 * row of buttons holds, stays in the quick pick.
 */
import type { Question, SelectOption } from '../../elicitation/model';
import type { RequestSource } from '../../elicitation/request';
import { oneLine } from '../text';

const MAX_CHOICES = 3;
const MAX_LABEL = 60;

function fitsButton(option: SelectOption): boolean {
  const { label } = option;
  return option.description === undefined && label.trim() !== '' && !label.includes('&') && oneLine(label, MAX_LABEL) === label;
}

/** The question's choices as dialog buttons, or undefined when the dialog cannot ask it. */
export function dialogChoices(question: Question): readonly SelectOption[] | undefined {
  if (question.kind !== 'single-select' || !question.required) return undefined;
  const { options } = question;
  if (options.length < 1 || options.length > MAX_CHOICES) return undefined;
  return options.every(fitsButton) ? options : undefined;
}

/**
 * A modal only for a question of a call the person started and is waiting on (Run Tool, their
 * agent's own permission request). Never for a background task's question, whoever started
 * the task: it comes whenever the task gets there, and must not take the window.
 */
export function mayUseModal(source: RequestSource): boolean {
  return source.personStarted === true && source.background !== true;
}
