/**
 * An idle timeout for a tool call that can be paused: while the person is answering a
 * question the call is waiting on, the clock stops, so a half-filled form is never lost
 * to a request timeout. Progress from the server starts the clock again from zero.
 */
import { once } from '../../base/once';

export class Watchdog {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pauses = 0;
  private disposed = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly describe: () => string,
  ) {
    this.arm();
  }

  /** Aborts, with an Error saying why, when the call has been idle too long. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the clock until the returned function is called (nests). */
  pause(): () => void {
    this.pauses++;
    this.clear();
    return once(() => {
      this.pauses--;
      this.arm();
    });
  }

  /** Starts the clock again from zero (the server showed progress). */
  reset(): void {
    this.arm();
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }

  private arm(): void {
    this.clear();
    if (this.disposed || this.pauses > 0 || !Number.isFinite(this.timeoutMs) || this.timeoutMs <= 0) return;
    this.timer = setTimeout(() => this.controller.abort(new Error(this.describe())), this.timeoutMs);
  }

  private clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
