/**
 * A Run Tool call's progress, out of the way of its own questions. While the call runs, a
 * notification shows its progress, and its Cancel stops the tool call. While one of the
 * call's questions is on screen the notification would cover the form's buttons and put a
 * second Cancel beside the form's own: so it gives way to the status bar (window progress,
 * "waiting for your answer"), and the question's Cancel is the only one. When the question
 * ends and the call goes on, the notification comes back after a moment (a call that asks
 * again at once does not make it flicker). For the same reason the call starts in the status
 * bar, and the notification comes only if the call runs a moment without asking: a call that
 * asks at once (most that ask) never flashes a notification, whose coming and going would
 * also slow the form being drawn beside it. The status bar's progress itself starts a moment
 * after the call, once any prompt the call raised at once is drawn (src/ui/after-prompts.ts):
 * begun in the same turn, it was drawn in the workbench's thread beside a new form panel. Its
 * "waiting for your answer" comes the same way, once the question is drawn: changed in the
 * question's own turn, the status bar was laid out again beside the new panel (the first form
 * 8 ms later, `npm run bench -- forms`).
 */
import * as vscode from 'vscode';
import type { CallProgress } from '../../mcp/ports';
import { refreshAfterPrompts } from '../after-prompts';
import { linkSafe, statusSafe } from '../text';

/** How long the call must go on without a question before its notification shows, at first and again after one. */
const NOTIFICATION_AFTER_MS = 800;
/** How long after the call its status bar progress starts (later still while a new form panel is drawn). */
const STATUS_AFTER_MS = 100;

interface Phase {
  readonly location: vscode.ProgressLocation;
  readonly end: () => void;
  report(message: string | undefined): void;
}

export class CallProgressView implements vscode.Disposable {
  private phase: Phase | undefined;
  private openQuestions = 0;
  private lastMessage: string | undefined;
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** Starts the status bar's progress, unless something shows the call by then. */
  private readonly statusSoon = refreshAfterPrompts(() => {
    if (!this.phase) this.open(vscode.ProgressLocation.Window);
  }, STATUS_AFTER_MS);
  /** Says in the status bar that the call waits for the person, once the question is drawn. */
  private readonly waitingSoon = refreshAfterPrompts(() => this.phase?.report(this.lastMessage));

  /**
   * @param title who runs what ("plan_trip on fixture")
   * @param stop stops the tool call (the notification's Cancel)
   */
  constructor(
    private readonly title: string,
    private readonly stop: () => void,
  ) {
    this.statusSoon();
    this.notifyLater();
  }

  private notifyLater(): void {
    this.cancelNotify();
    this.notifyTimer = setTimeout(() => this.open(vscode.ProgressLocation.Notification), NOTIFICATION_AFTER_MS);
  }

  report(progress: CallProgress): void {
    if (this.disposed) return;
    const text = progress.round !== undefined ? `round ${progress.round}: waiting for your input` : progress.message;
    if (text !== undefined) this.lastMessage = text;
    if (progress.asking === true) {
      this.openQuestions++;
      this.cancelNotify();
      // The notification gives way at once (it would cover the form's buttons); the status bar's progress, if not shown yet, comes once the prompt is drawn.
      if (this.phase?.location === vscode.ProgressLocation.Notification) this.open(vscode.ProgressLocation.Window);
      else if (this.phase) this.waitingSoon();
      else this.statusSoon();
      return;
    }
    if (progress.asking === false) {
      this.openQuestions = Math.max(0, this.openQuestions - 1);
      if (this.openQuestions === 0) {
        this.lastMessage = undefined;
        this.notifyLater();
      }
      return;
    }
    this.phase?.report(this.lastMessage);
  }

  private open(location: vscode.ProgressLocation): void {
    if (this.disposed) return;
    this.phase?.end();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    let reporter: vscode.Progress<{ message?: string }> | undefined;
    const notification = location === vscode.ProgressLocation.Notification;
    // Server text as text: the notification draws links, the status bar links and $(icons).
    const shown = (text: string, max = 200): string => (notification ? linkSafe(text, max) : statusSafe(text, max));
    void vscode.window.withProgress(
      // In the notification the title says what its Cancel does; in the status bar the message says why the call waits.
      { location, title: shown(notification ? `${this.title} (Cancel stops the tool call)` : this.title, 160), cancellable: notification },
      (progress, token) => {
        reporter = progress;
        token.onCancellationRequested(() => this.stop());
        if (this.lastMessage !== undefined) progress.report({ message: shown(this.lastMessage) });
        return ended;
      },
    );
    this.phase = { location, end, report: (message) => reporter?.report({ ...(message !== undefined && { message: shown(message) }) }) };
  }

  private cancelNotify(): void {
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.notifyTimer = undefined;
  }

  /** The call ended: whatever shows its progress goes. */
  dispose(): void {
    this.disposed = true;
    this.cancelNotify();
    this.statusSoon.cancel();
    this.waitingSoon.cancel();
    this.phase?.end();
    this.phase = undefined;
  }
}
