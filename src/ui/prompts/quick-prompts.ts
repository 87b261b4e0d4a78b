/**
 * One question in VS Code's own quick input: a quick pick for choices, an input box for
 * typed values. Every prompt names the asking server in its title, shows the whole
 * message, offers Decline as an explicit choice (Escape or closing is cancel), and closes
 * itself when nobody waits for the answer any more.
 */
import * as vscode from 'vscode';
import type { ContentValue, MultiSelectQuestion, Question } from '../../elicitation/model';
import { checkValue, defaultOf, parseTypedText } from '../../elicitation/validation';
import { declineRows, messageRows, type PromptFrame, type Row, runQuickPick, SEPARATOR_FITS, separator, settle, type StepResult, stepButtons, stepPick } from '../quick-input/quick-input-frame';
import { iconSafe, messageSafe, oneLine } from '../text';

const secretWarning = 'Careful: this looks like a request for a secret. MCP servers must not ask for passwords or keys this way.';

/**
 * A yes/no question (an empty schema): Accept or Decline. A destructive one (from a call
 * the person did not start: theirs get a modal) says so first, and Decline is preselected.
 */
export function askConfirm(frame: PromptFrame, destructive?: { readonly what: string }): Promise<StepResult> {
  return runQuickPick(
    frame,
    (pick) => {
      const accept: Row = { label: '$(check) Accept', role: 'accept', alwaysShow: true };
      const declines = declineRows(frame);
      const warning: Row[] = destructive ? [{ label: `$(warning) ${iconSafe(destructive.what, 300)}`, role: 'message', alwaysShow: true }, separator()] : [];
      pick.items = [...warning, ...messageRows(frame.message), separator(), accept, ...declines];
      pick.activeItems = [destructive ? declines[0] : accept];
      pick.placeholder = destructive ? 'A destructive action: accept or decline' : 'Accept or decline';
    },
    (pick) => (pick.selectedItems[0]?.role === 'accept' ? { kind: 'value', value: undefined } : undefined),
  );
}

function describeQuestion(question: Question): string {
  const parts = [question.title, question.description].filter((p): p is string => !!p);
  return oneLine(parts.join(': ') + (question.required ? '' : ' (optional)'), 300);
}

/** The "Other…" entry of a select that takes the person's own answer (own-answer-pick.ts). */
export interface OtherEntry {
  /** Chosen at the start (the own answer has a draft): ticked in a multi-select, highlighted in a single one. */
  readonly chosen: boolean;
  /** A multi-select's ticks changed: the options ticked, in their order, and whether Other… is. */
  readonly onChange?: (values: readonly string[], other: boolean) => void;
}

/** Plain words and no icon: the entry is ours, beside the asker's options. */
function otherRow(): Row {
  return { label: 'Other…', description: 'type your own answer', role: 'other', alwaysShow: true };
}

/** One boolean or single-select question as a quick pick of its options (and "Other…", when offered). */
export function askPick(question: Question, frame: PromptFrame, initial: ContentValue | undefined, other?: OtherEntry): Promise<StepResult> {
  const options: Array<{ label: string; value: ContentValue; description?: string }> =
    question.kind === 'boolean'
      ? [
          { label: 'Yes', value: true },
          { label: 'No', value: false },
        ]
      : question.kind === 'single-select'
        ? question.options.map((o) => ({ label: o.label, value: o.value, ...(o.description && { description: o.description }) }))
        : [];
  return runQuickPick(
    frame,
    (pick) => {
      const rows: Row[] = options.map((o) => ({
        label: iconSafe(o.label, 300),
        ...(o.description && { detail: iconSafe(o.description, 500) }),
        description: o.value === question.defaultValue ? 'default' : undefined,
        role: 'option',
        value: o.value,
      }));
      const others: Row[] = other ? [otherRow()] : [];
      const empty: Row[] = question.required ? [] : [{ label: 'Leave empty', description: 'no answer', role: 'empty', alwaysShow: true }];
      const declines = declineRows(frame);
      pick.items = [
        ...messageRows(frame.message),
        separator(question.title),
        ...rows,
        ...others,
        ...empty,
        separator(),
        ...declines,
      ];
      pick.placeholder = describeQuestion(question);
      // An optional yes/no nobody has answered stays unanswered on Enter (as in the form): Leave empty first.
      // A permission with no default: Decline, never an option that allows.
      const untouched = frame.approval && declines[0] ? declines[0] : question.kind === 'boolean' && !question.required ? empty[0] : rows[0];
      const preselected =
        rows.find((r) => r.value === initial) ?? (other?.chosen ? others[0] : undefined) ?? rows.find((r) => r.value === question.defaultValue) ?? untouched;
      if (preselected) pick.activeItems = [preselected];
    },
    (pick) => {
      const row = pick.selectedItems[0];
      if (!row) return undefined;
      if (row.role === 'option') return { kind: 'value', value: row.value };
      if (row.role === 'other') return { kind: 'other' };
      if (row.role === 'empty') return { kind: 'value', value: undefined };
      return undefined;
    },
  );
}

function countHint(question: MultiSelectQuestion): string {
  const { minItems: min, maxItems: max } = question;
  return min !== undefined && max !== undefined
    ? min === max
      ? `choose ${min}`
      : `choose ${min} to ${max}`
    : min !== undefined
      ? `choose at least ${min}`
      : max !== undefined
        ? `choose at most ${max}`
        : 'choose any';
}

/** What the filter box shows of a placeholder at the quick input's usual width (checked in the workbench): longer messages get a step of their own. */
const PLACEHOLDER_FITS = 60;

/**
 * A message too long for a placeholder gets a step of its own first (rows of a
 * multi-select carry check boxes, so the message cannot be rows there).
 */
async function showLongMessage(frame: PromptFrame): Promise<StepResult | undefined> {
  if (frame.message.length <= PLACEHOLDER_FITS && !frame.message.includes('\n')) return undefined;
  const result = await runQuickPick(
    frame,
    (pick) => {
      const next: Row = { label: '$(arrow-right) Continue', role: 'accept', alwaysShow: true };
      pick.items = [...messageRows(frame.message), separator(), next, ...declineRows(frame)];
      pick.activeItems = [next];
      pick.placeholder = 'Read the question, then continue';
    },
    (pick) => (pick.selectedItems[0]?.role === 'accept' ? { kind: 'value', value: undefined } : undefined),
  );
  return result.kind === 'value' ? undefined : result;
}

/**
 * One multi-select question as a multi-select quick pick (and "Other…", when offered: ticked
 * and accepted, it ends in `other` with the options ticked beside it). Too few or too many
 * choices, or none for a required question, keep it open with the core's message in place
 * of the placeholder.
 */
export async function askPickMany(question: MultiSelectQuestion, frame: PromptFrame, initial: ContentValue | undefined, other?: OtherEntry): Promise<StepResult> {
  if (frame.signal.aborted) return { kind: 'aborted' };
  const stopped = await showLongMessage(frame);
  if (stopped) return stopped;
  const pick = stepPick(frame);
  pick.canSelectMany = true;
  const chosenBefore = new Set(Array.isArray(initial) ? initial : (question.defaultValue ?? []));
  const rows: Row[] = question.options.map((o) => ({
    label: iconSafe(o.label, 300),
    ...(o.description && { detail: iconSafe(o.description, 500) }),
    role: 'option',
    value: o.value,
  }));
  const others: Row[] = other ? [otherRow()] : [];
  const hint = countHint(question);
  pick.items = [separator(`${oneLine(question.title, SEPARATOR_FITS - hint.length - 3)} · ${hint}`), ...rows, ...others];
  pick.selectedItems = [...rows.filter((r) => chosenBefore.has(r.value as string)), ...(other?.chosen ? others : [])];
  const placeholder = oneLine(frame.message.length <= PLACEHOLDER_FITS ? frame.message : describeQuestion(question), 300);
  pick.placeholder = placeholder;
  // In the options' order, whatever order they were ticked in.
  const ticked = (): string[] => {
    const chosen = new Set(pick.selectedItems.map((r) => r.value));
    return rows.filter((r) => chosen.has(r.value)).map((r) => r.value as string);
  };
  const otherTicked = (): boolean => pick.selectedItems.some((r) => r.role === 'other');
  const refuse = (message: string, chosen: number): void => {
    // Refused: the pick stays open and says why.
    pick.placeholder = `${message} (${chosen} chosen)`;
  };
  return settle(pick, frame, (finish) => [
    pick.onDidChangeSelection(() => {
      pick.placeholder = placeholder;
      other?.onChange?.(ticked(), otherTicked());
    }),
    pick.onDidAccept(() => {
      const values = ticked();
      // The own answer answers it, alone or beside options (which must still fit the counts).
      if (otherTicked()) {
        const message = values.length > 0 ? checkValue(question, values) : undefined;
        if (message !== undefined) refuse(message, values.length);
        else finish({ kind: 'other', ...(values.length > 0 && { value: values }) });
        return;
      }
      if (values.length === 0 && !question.required && question.minItems === undefined) {
        finish({ kind: 'value', value: undefined });
        return;
      }
      // None chosen counts as no answer, which a required question refuses (unless it asks for at least none).
      if (values.length === 0 && question.required && question.minItems !== 0) {
        refuse(`${question.title}: choose at least one${other ? ', or Other… to type your own' : ''}`, 0);
        return;
      }
      const message = checkValue(question, values);
      if (message !== undefined) {
        refuse(message, values.length);
        return;
      }
      finish({ kind: 'value', value: values });
    }),
  ], () => {
    const values = ticked();
    return checkValue(question, values) === undefined ? values : undefined;
  });
}

function initialText(value: ContentValue | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** What a caller adds to an input box: a check of its own on Enter, and each change as it is typed (for drafts). */
export interface InputHooks {
  /** Why the accepted value is refused, beyond the question's own checks; undefined: it is not. */
  readonly check?: (value: ContentValue | undefined) => string | undefined;
  readonly onChange?: (text: string) => void;
}

/** One text, number or integer question as an input box, validated live by the core. */
export function askInput(question: Question, frame: PromptFrame, initial: ContentValue | undefined, error?: string, hooks: InputHooks = {}): Promise<StepResult> {
  if (frame.signal.aborted) return Promise.resolve({ kind: 'aborted' });
  const box = vscode.window.createInputBox();
  box.title = oneLine(frame.title);
  box.ignoreFocusOut = true;
  box.step = frame.step;
  box.totalSteps = frame.totalSteps;
  box.buttons = stepButtons(frame);
  box.value = initialText(initial ?? defaultOf(question));
  box.placeholder = describeQuestion(question);
  box.password = question.looksSecret;
  // The prompt wraps, so the whole message is readable. It draws icons and command links:
  // server text is escaped for it, and so is every validation message (they name fields).
  box.prompt = messageSafe(
    [frame.message, question.description && `${question.title}: ${question.description}`, question.looksSecret && secretWarning].filter(Boolean).join('\n\n'),
  );
  const validate = (text: string): string | undefined => {
    const parsed = parseTypedText(question, text);
    return parsed.ok ? undefined : messageSafe(parsed.message);
  };
  box.validationMessage = error !== undefined ? messageSafe(error) : validate(box.value);
  return settle(box, frame, (finish) => [
    box.onDidChangeValue((text) => {
      box.validationMessage = validate(text);
      hooks.onChange?.(text);
    }),
    box.onDidAccept(() => {
      // Refused: the box stays open and says so (the message alone was there before Enter).
      const parsed = parseTypedText(question, box.value);
      if (!parsed.ok) {
        box.validationMessage = messageSafe(`Not sent: ${parsed.message}`);
        return;
      }
      if (parsed.value === undefined && question.required) {
        box.validationMessage = messageSafe(`Not sent: ${question.title} is required`);
        return;
      }
      const refused = hooks.check?.(parsed.value);
      if (refused !== undefined) {
        box.validationMessage = messageSafe(`Not sent: ${refused}`);
        return;
      }
      finish({ kind: 'value', value: parsed.value });
    }),
  ], () => {
    // Typed but not yet accepted: the form gets it too, if it is a valid answer.
    const parsed = parseTypedText(question, box.value);
    return parsed.ok ? parsed.value : undefined;
  });
}

/** Asks one question with the surface that fits its kind. */
export function askQuestion(question: Question, frame: PromptFrame, initial: ContentValue | undefined, error?: string): Promise<StepResult> {
  switch (question.kind) {
    case 'boolean':
    case 'single-select':
      return askPick(question, frame, initial);
    case 'multi-select':
      return askPickMany(question, frame, initial);
    default:
      return askInput(question, frame, initial, error);
  }
}
