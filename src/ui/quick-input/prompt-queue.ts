/**
 * The order in which questions reach a surface that shows one at a time (VS Code's
 * quick input): first come first served; a question that ends while it waits leaves
 * without a word; any waiting question can be brought forward, and the one on screen then
 * steps aside and waits again right behind it.
 */
import { once } from '../../base/once';

export type ShowResult<T> = { readonly kind: 'done'; readonly value: T } | { readonly kind: 'deferred' } | { readonly kind: 'aborted' };

export interface QueuedItem<T> {
  readonly id: string;
  readonly signal: AbortSignal;
  /** Shows the item; resolves when the person settled it, it stepped aside, or it ended. */
  readonly show: () => Promise<ShowResult<T>>;
  readonly resolve: (value: T) => void;
  /** Called when the item ended while on screen (to say why it closed). */
  readonly onAborted?: () => void;
}

export class PromptQueue<T> {
  private readonly waiting: Array<QueuedItem<T>> = [];
  private current: QueuedItem<T> | undefined;
  private running = false;
  private pauses = 0;
  /** Where a question that stepped aside goes back: first, or behind the one brought forward. */
  private stepAsideToSecond = false;

  /** Asks the surface to hide what it shows now, keeping it queued; false if nothing is shown. */
  constructor(private readonly stepAside: () => boolean) {}

  get visibleId(): string | undefined {
    return this.current?.id;
  }

  get waitingIds(): string[] {
    return this.waiting.map((item) => item.id);
  }

  enqueue(item: QueuedItem<T>): void {
    this.waiting.push(item);
    void this.pump();
  }

  /**
   * Keeps the surface free (the one on screen steps aside and waits) until the returned
   * function is called: for another use of the surface, such as the list of pending questions.
   */
  pause(): () => void {
    this.pauses++;
    this.stepAside();
    return once(() => {
      this.pauses--;
      void this.pump();
    });
  }

  /** Shows this item next (now, if another is on screen). */
  bringForward(id: string): boolean {
    if (this.current?.id === id) return true;
    const index = this.waiting.findIndex((item) => item.id === id);
    if (index < 0) return false;
    const [item] = this.waiting.splice(index, 1);
    this.waiting.unshift(item);
    this.stepAsideToSecond = true;
    if (!this.stepAside()) {
      this.stepAsideToSecond = false;
      void this.pump();
    }
    return true;
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.pauses === 0) {
        const item = this.waiting.shift();
        if (!item) return;
        if (item.signal.aborted) continue;
        this.current = item;
        let result: ShowResult<T>;
        try {
          result = await item.show();
        } finally {
          this.current = undefined;
        }
        if (result.kind === 'done') item.resolve(result.value);
        else if (result.kind === 'aborted') item.onAborted?.();
        else {
          // Stepped aside: first in line again, or right behind the question brought forward.
          this.waiting.splice(this.stepAsideToSecond ? Math.min(1, this.waiting.length) : 0, 0, item);
          this.stepAsideToSecond = false;
        }
      }
    } finally {
      this.running = false;
    }
  }
}
