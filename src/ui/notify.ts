/**
 * Every message the extension shows, notification or dialog, goes through here, so each
 * gets the escaping its surface needs (see text.ts) whatever text it carries: an error
 * message can hold an HTTP body or a crashed server's last output. Lint allows
 * `window.show{Information,Warning,Error}Message` in this file only.
 */
import * as vscode from 'vscode';
import { dialogHeading, dialogText, linkSafe } from './text';
import { errorMessage } from '../base/error-message';

/** Notifications turn `[label](target)` into links: broken here; on one line, capped. */
const NOTIFICATION_FITS = 1000;

export function showInfo<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showInformationMessage(linkSafe(text, NOTIFICATION_FITS), ...actions);
}

export function showWarning<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showWarningMessage(linkSafe(text, NOTIFICATION_FITS), ...actions);
}

export function showError<T extends string>(text: string, ...actions: T[]): Thenable<T | undefined> {
  return vscode.window.showErrorMessage(linkSafe(text, NOTIFICATION_FITS), ...actions);
}

/** A command's failure, told as text: an error can carry an HTTP body or a server's last output. */
export function reportFailure(promise: Promise<unknown>): void {
  promise.catch((error: unknown) => void showError(errorMessage(error)));
}

export interface Dialog<T extends vscode.MessageItem> {
  readonly kind: 'info' | 'warning';
  /** The dialog's bold heading: one line. */
  readonly heading: string;
  /** The text under it: lines kept. */
  readonly detail: string;
  readonly buttons: readonly T[];
}

/**
 * A modal dialog. Dialogs draw neither icons nor links, so their text needs no escaping;
 * what a person reads there is what they approve, so invisible and control characters are
 * shown as `<U+XXXX>`, and a detail too long for the dialog keeps its start and its end
 * (text.ts). A dialog whose detail is not all shown should offer the whole (the prompter's
 * dialogs do). The first button is the default: put Decline first.
 *
 * The dialog must own the keyboard. When the active editor is a webview (an agent's session
 * panel, where the person has just pressed Enter), the focus leaves it for the workbench
 * before the dialog shows, and the active editor gets it back once the dialog is answered:
 * a webview that kept or took back the focus as the dialog opened would take the person's
 * Enter and Escape meant for the dialog (the web workbench's dialog does not take its focus
 * back from a frame).
 */
export async function showDialog<T extends vscode.MessageItem>(dialog: Dialog<T>): Promise<T | undefined> {
  const heading = dialogHeading(dialog.heading);
  const options: vscode.MessageOptions = { modal: true, detail: dialogText(dialog.detail).text };
  const fromWebview = vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview;
  if (fromWebview) await vscode.commands.executeCommand('workbench.action.focusStatusBar').then(undefined, () => undefined);
  try {
    return await (dialog.kind === 'warning'
      ? vscode.window.showWarningMessage(heading, options, ...dialog.buttons)
      : vscode.window.showInformationMessage(heading, options, ...dialog.buttons));
  } finally {
    if (fromWebview) void vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup').then(undefined, () => undefined);
  }
}
