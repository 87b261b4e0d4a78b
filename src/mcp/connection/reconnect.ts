/**
 * When a server that went away (HTTP) is tried again: waits that grow, the last one
 * repeating; one timer at a time. The connection decides whether an attempt is still
 * wanted when it fires (its generation).
 */

/** Waits before each reconnection of an HTTP server; the last one repeats. */
export const DEFAULT_RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000, 30000];

/** The wait before reconnection attempt `attempt` (from 0); undefined when reconnecting is off (no delays). */
export function reconnectDelay(delaysMs: readonly number[], attempt: number): number | undefined {
  return delaysMs.length === 0 ? undefined : delaysMs[Math.min(attempt, delaysMs.length - 1)];
}

export class ReconnectTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;

  constructor(private readonly delaysMs: readonly number[] = DEFAULT_RECONNECT_DELAYS_MS) {}

  /** Arms the next attempt (replacing an armed one); its delay, or undefined when reconnecting is off. */
  schedule(attempt: () => void): number | undefined {
    const delay = reconnectDelay(this.delaysMs, this.attempt);
    if (delay === undefined) return undefined;
    this.attempt++;
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      attempt();
    }, delay);
    return delay;
  }

  /** The server is back: the next loss starts again from the first delay. */
  succeeded(): void {
    this.attempt = 0;
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
