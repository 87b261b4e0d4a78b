/**
 * Questions of background tasks (MCP Tasks: a task's `input_required` question, a
 * task-backed question a server sends us, a task picked up again after a reload) wait
 * for the person instead of taking the screen. Such a question comes whenever the task
 * gets there, minutes after the call began or with nobody's call waiting at all; the
 * person may be typing elsewhere, and a quick input that opened by itself would take
 * their keys, a form their editor. So it is announced (a notification with Answer, besides
 * the status bar count and the Agent Inputs badge every question gets), sits in Pending
 * Inputs, and is asked only when the person opens it. It is never a modal (see
 * dialog-choices.ts). When it ends while it waits (its task was cancelled, its time to
 * live ran out, the server stopped), the person, who was told it came, is told why it went.
 * Without `vscode`: the announcement and the telling are the caller's.
 */
import type { Outcome } from '../../elicitation/broker';
import type { InputRequest } from '../../elicitation/request';

interface Held {
  readonly ask: () => void;
}

export class HeldQuestions {
  private readonly held = new Map<string, Held>();
  /** Requests the person opened: asked again (an answer refused), they are asked at once. */
  private readonly opened = new Set<string>();

  constructor(
    private readonly announce: (request: InputRequest) => void,
    private readonly ended: (request: InputRequest, signal: AbortSignal) => void,
  ) {}

  static holds(request: InputRequest): boolean {
    return request.source.background === true;
  }

  /** The ids waiting to be opened, oldest first. */
  get waiting(): string[] {
    return [...this.held.keys()];
  }

  /**
   * Resolves with `ask`'s outcome once the person opened the request (at once if they had
   * already), or with cancel if it ends first (`signal`: the broker has moved on by then).
   */
  hold(request: InputRequest, signal: AbortSignal, ask: () => Promise<Outcome>): Promise<Outcome> {
    if (this.opened.has(request.id)) return ask();
    if (signal.aborted) return Promise.resolve({ action: 'cancel' });
    return new Promise<Outcome>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.held.delete(request.id)) return;
        this.ended(request, signal);
        resolve({ action: 'cancel' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.held.set(request.id, {
        ask: () => {
          signal.removeEventListener('abort', onAbort);
          this.opened.add(request.id);
          // The request's last ask ends with its signal: then it is forgotten.
          signal.addEventListener('abort', () => this.opened.delete(request.id), { once: true });
          ask().then(resolve, reject);
        },
      });
      this.announce(request);
    });
  }

  /** The person opened it: it is asked now. False if it is not held (never was, or ended). */
  release(requestId: string): boolean {
    const held = this.held.get(requestId);
    if (!held) return false;
    this.held.delete(requestId);
    held.ask();
    return true;
  }
}
