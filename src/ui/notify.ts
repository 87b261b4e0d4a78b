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
 */
export function showDialog<T extends vscode.MessageItem>(dialog: Dialog<T>): Thenable<T | undefined> {
  const heading = dialogHeading(dialog.heading);
  const options: vscode.MessageOptions = { modal: true, detail: dialogText(dialog.detail).text };
  return dialog.kind === 'warning'
    ? vscode.window.showWarningMessage(heading, options, ...dialog.buttons)
    : vscode.window.showInformationMessage(heading, options, ...dialog.buttons);
}
