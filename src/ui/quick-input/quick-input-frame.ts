/**
 * What every prompt in VS Code's quick input shares: the frame (who asks, the message,
 * the step), the buttons and rows for Back, Decline and "Decline and stop asking", and
 * the wiring that settles a prompt when the person answers, the request ends elsewhere,
 * or the prompter moves it aside (deferred, not cancelled).
 */
import * as vscode from 'vscode';
import type { ContentValue } from '../../elicitation/model';
import { escapeIcons, oneLine, wrap } from '../text';

export type StepResult =
  | { readonly kind: 'value'; readonly value: ContentValue | undefined }
  | { readonly kind: 'back' }
  /** Decline; after "Decline and stop asking" the frame's `mute` has been called. */
  | { readonly kind: 'decline' }
  | { readonly kind: 'cancel' }
  /** Hidden by us (another prompt was brought forward, or one of our own quick inputs needs the widget), not by the person. */
  | { readonly kind: 'deferred' }
  /** The request ended elsewhere (withdrawn, server gone, timed out). */
  | { readonly kind: 'aborted' }
  /** Back to the form panel, with what the box held if it parses (see PromptFrame.offerForm). */
  | { readonly kind: 'form'; readonly value?: ContentValue }
  /** "Other…": the person types their own answer next (a multi-select's options ticked beside it in `value`). */
  | { readonly kind: 'other'; readonly value?: ContentValue };

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
  /** The person's own question (Run Tool's arguments): no Decline, nobody to decline to. */
  readonly ownQuestion?: boolean;
  /** A permission: with nothing chosen before and no default, Decline is preselected, never an option that allows. */
  readonly approval?: boolean;
  /** Offers "Decline and stop asking" (a server, not an extension): `who` is named, `mute` silences it. */
  readonly mute?: { readonly who: string; readonly mute: () => void };
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

export const MUTE_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('bell-slash'),
  tooltip: 'Decline and stop asking: no more questions from this server until you unmute it in the Servers view',
};

export const FORM_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('preview'),
  tooltip: 'Answer in the form',
};

/** Back (from the second step on), back to the form (where offered), Decline, Decline and stop asking (where offered). */
export function stepButtons(frame: Pick<PromptFrame, 'canGoBack' | 'offerForm' | 'mute' | 'ownQuestion'>): vscode.QuickInputButton[] {
  return [
    ...(frame.canGoBack ? [vscode.QuickInputButtons.Back] : []),
    ...(frame.offerForm ? [FORM_BUTTON] : []),
    ...(frame.ownQuestion ? [] : [DECLINE_BUTTON]),
    ...(frame.mute ? [MUTE_BUTTON] : []),
  ];
}

export type Row = vscode.QuickPickItem & {
  readonly role: 'message' | 'option' | 'other' | 'empty' | 'decline' | 'mute' | 'accept';
  readonly value?: ContentValue;
};

/** The message as rows: the only way a quick pick shows long text whole. */
export function messageRows(message: string): Row[] {
  return wrap(message).map((line) => ({ label: escapeIcons(line) || ' ', role: 'message' as const, alwaysShow: true }));
}

/**
 * A separator's label is drawn at the right end of the row below it, over that row's own
 * label when long: kept short, so the first option stays readable.
 */
export const SEPARATOR_FITS = 40;

export function separator(label = ''): Row {
  return { label: oneLine(label, SEPARATOR_FITS), kind: vscode.QuickPickItemKind.Separator, role: 'message' };
}

/** Decline, and "Decline and stop asking" where the frame offers it: the last rows of a pick (none for the person's own question). */
export function declineRows(frame: Pick<PromptFrame, 'mute' | 'ownQuestion'>): Row[] {
  if (frame.ownQuestion) return [];
  return [
    { label: '$(circle-slash) Decline', role: 'decline', alwaysShow: true },
    ...(frame.mute
      ? [{ label: '$(bell-slash) Decline and stop asking', description: `no more questions from ${escapeIcons(oneLine(frame.mute.who, 80))} this session`, role: 'mute' as const, alwaysShow: true }]
      : []),
  ];
}

/**
 * Shows a quick pick of rows and resolves when the person settles it, or the request
 * ends. Rows with role `message` are for reading: accepting one does nothing. The decline
 * rows are handled here; `onAccept` handles the prompt's own.
 */
/** A quick pick for one step of a prompt: its title, its place in the steps, its buttons; kept open on focus loss. */
export function stepPick(frame: PromptFrame): vscode.QuickPick<Row> {
  const pick = vscode.window.createQuickPick<Row>();
  pick.title = oneLine(frame.title);
  pick.ignoreFocusOut = true;
  pick.step = frame.step;
  pick.totalSteps = frame.totalSteps;
  pick.buttons = stepButtons(frame);
  return pick;
}

export function runQuickPick(
  frame: PromptFrame,
  setup: (pick: vscode.QuickPick<Row>) => void,
  onAccept: (pick: vscode.QuickPick<Row>) => StepResult | undefined,
): Promise<StepResult> {
  if (frame.signal.aborted) return Promise.resolve({ kind: 'aborted' });
  const pick = stepPick(frame);
  pick.matchOnDescription = true;
  setup(pick);
  return settle(pick, frame, (finish) => [
    pick.onDidAccept(() => {
      const role = pick.selectedItems[0]?.role;
      const result = role === 'decline' || role === 'mute' ? decline(frame, role === 'mute') : onAccept(pick);
      if (result) finish(result);
    }),
  ]);
}

function decline(frame: PromptFrame, mute: boolean): StepResult {
  if (mute) frame.mute?.mute();
  return { kind: 'decline' };
}

/**
 * Wires hide, abort, back, back to the form, decline and mute; `extra` adds the prompt's
 * own accept handling, `unsaved` what it holds that the form should get.
 */
export function settle(
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
        else if (button === DECLINE_BUTTON || button === MUTE_BUTTON) finish(decline(frame, button === MUTE_BUTTON));
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
