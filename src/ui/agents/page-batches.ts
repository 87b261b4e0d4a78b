/**
 * What a session panel posts to its page, gathered into one message per frame's time: each
 * `postMessage` costs the extension host and the page a fixed price, and an agent streams
 * hundreds of chunks a second. The first message after a quiet spell goes at once (a reply's
 * first words are not held back); what follows within the next WINDOW_MS goes together at its
 * end as one `batch`, a streamed entry's appends joined into one and an entry's successive
 * states into its last (the header and the count likewise). Order between entries is kept.
 * Pure (no `vscode`): the clock is given, so the unit test counts posts instead of timing them.
 */
import type { SessionHostMessage } from '../../shared/session-protocol';

/** One frame at 60 Hz: what the page could draw anyway. */
export const WINDOW_MS = 16;

export interface BatchClock {
  now(): number;
  /** Calls `run` after `ms`; returns what cancels it. */
  later(run: () => void, ms: number): () => void;
}

const REAL_CLOCK: BatchClock = {
  now: () => performance.now(),
  later: (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class PageBatches {
  /** Messages waiting for the window's end; `undefined` where a later one took a message's place. */
  private pending: Array<SessionHostMessage | undefined> = [];
  /** Where in `pending` the message an id's next one merges into sits: `append:<id>`, `entry:<id>`, `header`, `kept`. */
  private readonly at = new Map<string, number>();
  private lastSent = Number.NEGATIVE_INFINITY;
  private cancel: (() => void) | undefined;

  constructor(
    private readonly send: (message: SessionHostMessage) => void,
    private readonly clock: BatchClock = REAL_CLOCK,
  ) {}

  post(message: SessionHostMessage): void {
    const now = this.clock.now();
    if (!this.cancel && now - this.lastSent >= WINDOW_MS) {
      this.lastSent = now;
      this.send(message);
      return;
    }
    this.gather(message);
    this.cancel ??= this.clock.later(() => this.flush(), Math.max(0, this.lastSent + WINDOW_MS - now));
  }

  /** A message that replaces everything before it (the page's `reset`): what waits is dropped, this goes at once. */
  replaceAll(message: SessionHostMessage): void {
    this.drop();
    this.lastSent = this.clock.now();
    this.send(message);
  }

  /** Sends what waits now. */
  flush(): void {
    this.cancel?.();
    this.cancel = undefined;
    const messages = this.pending.filter((m): m is SessionHostMessage => m !== undefined);
    this.pending = [];
    this.at.clear();
    if (messages.length === 0) return;
    this.lastSent = this.clock.now();
    this.send(messages.length === 1 ? messages[0] : { type: 'batch', messages });
  }

  /** Drops what waits (the panel is gone). */
  drop(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.pending = [];
    this.at.clear();
  }

  private gather(message: SessionHostMessage): void {
    switch (message.type) {
      case 'append': {
        const i = this.at.get(`append:${message.id}`);
        const before = i === undefined ? undefined : this.pending[i];
        if (before?.type === 'append') {
          const joined: Mutable<Extract<SessionHostMessage, { type: 'append' }>> = { type: 'append', id: message.id, text: before.text + message.text };
          if (message.notShown !== undefined) joined.notShown = message.notShown;
          this.pending[i!] = joined;
          return;
        }
        this.at.set(`append:${message.id}`, this.pending.push(message) - 1);
        return;
      }
      case 'entry': {
        // A whole entry holds every append sent before it: those waiting are dropped.
        const id = message.entry.id;
        const appended = this.at.get(`append:${id}`);
        if (appended !== undefined) {
          this.pending[appended] = undefined;
          this.at.delete(`append:${id}`);
        }
        // An entry that was to be added last (new to the page) still is, whatever its state now.
        const i = this.at.get(`entry:${id}`);
        const before = i === undefined ? undefined : this.pending[i];
        this.replaceOrPush(`entry:${id}`, before?.type === 'entry' && before.last && !message.last ? { ...message, last: true } : message);
        return;
      }
      case 'header':
      case 'kept':
        this.replaceOrPush(message.type, message);
        return;
      default:
        this.pending.push(message);
    }
  }

  /** In the place of the message it supersedes (an entry keeps its place among the others), else last. */
  private replaceOrPush(key: string, message: SessionHostMessage): void {
    const i = this.at.get(key);
    if (i !== undefined) this.pending[i] = message;
    else this.at.set(key, this.pending.push(message) - 1);
  }
}
