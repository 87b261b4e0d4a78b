/**
 * One question in VS Code's own quick input: a quick pick for choices, an input box for
 * typed values. Every prompt names the asking server in its title, shows the whole
 * message, offers Decline as an explicit choice (Escape or closing is cancel), and closes
 * itself when nobody waits for the answer any more.
 */
import * as vscode from 'vscode';
import type { ContentValue, MultiSelectQuestion, Question } from '../elicitation/model';
import { checkValue, defaultOf, parseTypedText } from '../elicitation/validation';
import { escapeIcons, iconSafe, messageSafe, oneLine, wrap } from './text';

export type StepResult =
  | { readonly kind: 'value'; readonly value: ContentValue | undefined }
  | { readonly kind: 'back' }
  | { readonly kind: 'decline' }
  | { readonly kind: 'cancel' }
  /** Hidden by us (another prompt was brought forward), not by the person. */
  | { readonly kind: 'deferred' }
  /** The request ended elsewhere (withdrawn, server gone, timed out). */
  | { readonly kind: 'aborted' }
  /** Back to the form panel, with what the box held if it parses (see PromptFrame.offerForm). */
  | { readonly kind: 'form'; readonly value?: ContentValue };

export interface PromptFrame {
  /** "server · tool", shown as the title. */
  readonly title: string;
  /** The server's message, shown whole. */
  readonly message: string;
  readonly step?: number;
  readonly totalSteps?: number;
  readonly canGoBack?: boolean;
  /** A step of a form the form panel handed over: it offers the way back to the panel. */
  readonly offerForm?: boolean;
  readonly signal: AbortSignal;
  /** Set to hide the prompt as deferred rather than cancelled. */
  readonly deferral: Deferral;
}

/** Lets the prompter hide the visible prompt without the person's cancel being assumed. */
export class Deferral {
  private hideCurrent: (() => void) | undefined;
  deferred = false;

  attach(hide: () => void): void {
    this.deferred = false;
    this.hideCurrent = hide;
  }

  detach(): void {
    this.hideCurrent = undefined;
  }

  defer(): boolean {
    if (!this.hideCurrent) return false;
    this.deferred = true;
    this.hideCurrent();
    return true;
  }
}

export const DECLINE_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('circle-slash'),
  tooltip: 'Decline: tell the server no',
};

export const FORM_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('preview'),
  tooltip: 'Answer in the form',
};

/** Back (from the second step on), back to the form (where offered), Decline. */
function stepButtons(frame: Pick<PromptFrame, 'canGoBack' | 'offerForm'>): vscode.QuickInputButton[] {
  return [...(frame.canGoBack ? [vscode.QuickInputButtons.Back] : []), ...(frame.offerForm ? [FORM_BUTTON] : []), DECLINE_BUTTON];
}

type Row = vscode.QuickPickItem & { readonly role: 'message' | 'option' | 'empty' | 'decline' | 'accept'; readonly value?: ContentValue };

/** The message as rows: the only way a quick pick shows long text whole. */
function messageRows(message: string): Row[] {
  return wrap(message).map((line) => ({ label: escapeIcons(line) || ' ', role: 'message' as const, alwaysShow: true }));
}

/**
 * A separator's label is drawn at the right end of the row below it, over that row's own
 * label when long: kept short, so the first option stays readable.
 */
const SEPARATOR_FITS = 40;

function separator(label = ''): Row {
  return { label: oneLine(label, SEPARATOR_FITS), kind: vscode.QuickPickItemKind.Separator, role: 'message' };
}

const secretWarning = 'Careful: this looks like a request for a secret. MCP servers must not ask for passwords or keys this way.';

/**
 * Shows a quick pick of rows and resolves when the person settles it, or the request
 * ends. Rows with role `message` are for reading: accepting one does nothing.
 */
function runQuickPick(
  frame: PromptFrame,
  setup: (pick: vscode.QuickPick<Row>) => void,
  onAccept: (pick: vscode.QuickPick<Row>) => StepResult | undefined,
): Promise<StepResult> {
  if (frame.signal.aborted) return Promise.resolve({ kind: 'aborted' });
  const pick = vscode.window.createQuickPick<Row>();
  pick.title = oneLine(frame.title);
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.step = frame.step;
  pick.totalSteps = frame.totalSteps;
  pick.buttons = stepButtons(frame);
  setup(pick);
  return settle(pick, frame, (finish) => [
    pick.onDidAccept(() => {
      const result = onAccept(pick);
      if (result) finish(result);
    }),
  ]);
}

/**
 * Wires hide, abort, back, back to the form and decline; `extra` adds the prompt's own
 * accept handling, `unsaved` what it holds that the form should get.
 */
function settle(
  input: vscode.QuickPick<Row> | vscode.InputBox,
  frame: PromptFrame,
  extra: (finish: (result: StepResult) => void) => vscode.Disposable[],
  unsaved: () => ContentValue | undefined = () => undefined,
): Promise<StepResult> {
  return new Promise<StepResult>((resolve) => {
    let done = false;
    const disposables: vscode.Disposable[] = [];
    const finish = (result: StepResult): void => {
      if (done) return;
      done = true;
      frame.deferral.detach();
      frame.signal.removeEventListener('abort', onAbort);
      disposables.forEach((d) => d.dispose());
      input.dispose();
      resolve(result);
    };
    const onAbort = (): void => finish({ kind: 'aborted' });
    frame.signal.addEventListener('abort', onAbort, { once: true });
    disposables.push(
      input.onDidHide(() => finish(frame.deferral.deferred ? { kind: 'deferred' } : { kind: 'cancel' })),
      input.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) finish({ kind: 'back' });
        else if (button === DECLINE_BUTTON) finish({ kind: 'decline' });
        else if (button === FORM_BUTTON) {
          const value = unsaved();
          finish(value === undefined ? { kind: 'form' } : { kind: 'form', value });
        }
      }),
      ...extra(finish),
    );
    frame.deferral.attach(() => input.hide());
    input.show();
  });
}

/** A yes/no question (an empty schema): Accept or Decline. */
export function askConfirm(frame: PromptFrame): Promise<StepResult> {
  return runQuickPick(
    frame,
    (pick) => {
      const accept: Row = { label: '$(check) Accept', role: 'accept', alwaysShow: true };
      pick.items = [...messageRows(frame.message), separator(), accept, { label: '$(circle-slash) Decline', role: 'decline', alwaysShow: true }];
      pick.activeItems = [accept];
      pick.placeholder = 'Accept or decline';
    },
    (pick) => {
      const row = pick.selectedItems[0];
      if (row?.role === 'accept') return { kind: 'value', value: undefined };
      if (row?.role === 'decline') return { kind: 'decline' };
      return undefined;
    },
  );
}

function describeQuestion(question: Question): string {
  const parts = [question.title, question.description].filter((p): p is string => !!p);
  return oneLine(parts.join(': ') + (question.required ? '' : ' (optional)'), 300);
}

/** One boolean or single-select question as a quick pick of its options. */
export function askPick(question: Question, frame: PromptFrame, initial: ContentValue | undefined): Promise<StepResult> {
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
      const empty: Row[] = question.required ? [] : [{ label: 'Leave empty', description: 'no answer', role: 'empty', alwaysShow: true }];
      pick.items = [
        ...messageRows(frame.message),
        separator(question.title),
        ...rows,
        ...empty,
        separator(),
        { label: '$(circle-slash) Decline', role: 'decline', alwaysShow: true },
      ];
      pick.placeholder = describeQuestion(question);
      const preselected = rows.find((r) => r.value === initial) ?? rows.find((r) => r.value === question.defaultValue) ?? rows[0];
      if (preselected) pick.activeItems = [preselected];
    },
    (pick) => {
      const row = pick.selectedItems[0];
      if (!row) return undefined;
      if (row.role === 'option') return { kind: 'value', value: row.value };
      if (row.role === 'empty') return { kind: 'value', value: undefined };
      if (row.role === 'decline') return { kind: 'decline' };
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
      pick.items = [...messageRows(frame.message), separator(), next, { label: '$(circle-slash) Decline', role: 'decline', alwaysShow: true }];
      pick.activeItems = [next];
      pick.placeholder = 'Read the question, then continue';
    },
    (pick) => {
      const row = pick.selectedItems[0];
      if (row?.role === 'accept') return { kind: 'value', value: undefined };
      if (row?.role === 'decline') return { kind: 'decline' };
      return undefined;
    },
  );
  return result.kind === 'value' ? undefined : result;
}

/**
 * One multi-select question as a multi-select quick pick. Too few or too many choices
 * keep it open with the core's message in place of the placeholder.
 */
export async function askPickMany(question: MultiSelectQuestion, frame: PromptFrame, initial: ContentValue | undefined): Promise<StepResult> {
  if (frame.signal.aborted) return { kind: 'aborted' };
  const stopped = await showLongMessage(frame);
  if (stopped) return stopped;
  const pick = vscode.window.createQuickPick<Row>();
  pick.title = oneLine(frame.title);
  pick.ignoreFocusOut = true;
  pick.canSelectMany = true;
  pick.step = frame.step;
  pick.totalSteps = frame.totalSteps;
  pick.buttons = stepButtons(frame);
  const chosenBefore = new Set(Array.isArray(initial) ? initial : (question.defaultValue ?? []));
  const rows: Row[] = question.options.map((o) => ({
    label: iconSafe(o.label, 300),
    ...(o.description && { detail: iconSafe(o.description, 500) }),
    role: 'option',
    value: o.value,
  }));
  const hint = countHint(question);
  pick.items = [separator(`${oneLine(question.title, SEPARATOR_FITS - hint.length - 3)} · ${hint}`), ...rows];
  pick.selectedItems = rows.filter((r) => chosenBefore.has(r.value as string));
  const placeholder = oneLine(frame.message.length <= PLACEHOLDER_FITS ? frame.message : describeQuestion(question), 300);
  pick.placeholder = placeholder;
  return settle(pick, frame, (finish) => [
    pick.onDidChangeSelection(() => {
      pick.placeholder = placeholder;
    }),
    pick.onDidAccept(() => {
      // In the options' order, whatever order they were ticked in.
      const chosen = new Set(pick.selectedItems.map((r) => r.value));
      const values = rows.filter((r) => chosen.has(r.value)).map((r) => r.value as string);
      if (values.length === 0 && !question.required && question.minItems === undefined) {
        finish({ kind: 'value', value: undefined });
        return;
      }
      const message = checkValue(question, values);
      if (message !== undefined) {
        // Refused: the pick stays open and says why.
        pick.placeholder = `${message} (${values.length} chosen)`;
        return;
      }
      finish({ kind: 'value', value: values });
    }),
  ], () => {
    const values = pick.selectedItems.map((r) => r.value as string);
    return checkValue(question, values) === undefined ? values : undefined;
  });
}

function initialText(value: ContentValue | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** One text, number or integer question as an input box, validated live by the core. */
export function askInput(question: Question, frame: PromptFrame, initial: ContentValue | undefined, error?: string): Promise<StepResult> {
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
    }),
    box.onDidAccept(() => {
      const parsed = parseTypedText(question, box.value);
      if (!parsed.ok) {
        box.validationMessage = messageSafe(parsed.message);
        return;
      }
      if (parsed.value === undefined && question.required) {
        box.validationMessage = messageSafe(`${question.title} is required`);
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
