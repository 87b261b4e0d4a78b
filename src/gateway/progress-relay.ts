/**
 * Progress for the agent that made a call: what the upstream server reports, and, while
 * the person is answering one of the call's questions, our own notification every few
 * seconds. Clients that reset their request timeout on progress (the TypeScript SDK's
 * `resetTimeoutOnProgress`, Claude Code, VS Code) then wait for the person instead of
 * giving up after a minute.
 *
 * MCP requires each progress value of a token to be greater than the last, so upstream
 * values that would not be are raised just past the last one sent.
 */
import type { UpstreamProgress } from '../mcp/servers/upstream';
import type { RequestSource } from '../elicitation/request';
import type { InputStore } from '../elicitation/store';

export interface ProgressNote {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export type ProgressSink = (note: ProgressNote) => void;

/** The heartbeat's interval by default: well under the usual 60 s request timeout. */
export const DEFAULT_HEARTBEAT_MS = 10_000;

/**
 * The first note waits this long after the question opens (or the interval, if shorter), not
 * the turn it opens in: VS Code's MCP client handles a note in the workbench's own thread, where
 * our form is being drawn in those first 200 ms (`npm run bench -- spans` measured it). A
 * question answered sooner needed no note: nothing timed out.
 */
export const FIRST_BEAT_AFTER_MS = 1000;

export class ProgressRelay {
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: (() => void) | undefined;
  /** What the server's side said as its question opened ("todos is waiting for your answer"): the heartbeat says it. */
  private askingMessage: string | undefined;

  /** `sink` undefined: the caller gave no progress token, and nothing is sent. */
  constructor(private readonly sink: ProgressSink | undefined) {}

  /** Progress the upstream server (or our connection layer) reported. */
  forward(progress: UpstreamProgress): void {
    // "The question ended" is for our own progress view; the agent's heartbeat covers the wait.
    if (!this.sink || (progress.asking === false && progress.message === undefined && progress.progress === undefined)) return;
    if (progress.asking !== undefined && this.unsubscribe) {
      // A question opening or ending: while the heartbeat watches, its first note says it, a
      // moment later (FIRST_BEAT_AFTER_MS), not in the turn our form starts being drawn.
      this.askingMessage = progress.asking ? progress.message : undefined;
      if (progress.progress === undefined) return;
    }
    const value = typeof progress.progress === 'number' && Number.isFinite(progress.progress) && progress.progress > this.last ? progress.progress : this.last + 1;
    const total = typeof progress.total === 'number' && progress.total >= value ? progress.total : undefined;
    this.emit({ progress: value, ...(total !== undefined && { total }), ...(progress.message !== undefined && { message: progress.message }) });
  }

  /**
   * Sends a note a moment after `store` holds an open question that `belongs` to this call
   * (FIRST_BEAT_AFTER_MS) and then every `intervalMs` while one is open; stops by itself when
   * none is open, starts again when one opens. Returns the function that ends the watch.
   */
  whileAsking(store: InputStore, belongs: (source: RequestSource) => boolean, intervalMs = DEFAULT_HEARTBEAT_MS): () => void {
    if (!this.sink) return () => undefined;
    const asking = (): boolean => store.state.requests.some((r) => r.status === 'open' && belongs(r.request.source));
    const beatIn = (ms: number): void => {
      this.timer = setTimeout(() => {
        if (!asking()) return this.stopBeating();
        this.beat();
        beatIn(intervalMs);
      }, ms);
    };
    const update = (): void => {
      if (asking()) {
        if (!this.timer) beatIn(Math.min(intervalMs, FIRST_BEAT_AFTER_MS));
      } else {
        this.stopBeating();
      }
    };
    this.unsubscribe = store.subscribe(update);
    update();
    return () => this.dispose();
  }

  /** Sends a note now and every `intervalMs` until `work` settles (a server starting, say). */
  async during<T>(work: Promise<T>, message: string, intervalMs = DEFAULT_HEARTBEAT_MS): Promise<T> {
    if (!this.sink) return work;
    const timer = setInterval(() => this.emit({ progress: this.last + 1, message }), intervalMs);
    try {
      return await work;
    } finally {
      clearInterval(timer);
    }
  }

  dispose(): void {
    this.stopBeating();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private beat(): void {
    this.emit({ progress: this.last + 1, message: this.askingMessage ?? 'Waiting for the person to answer a question in VS Code' });
  }

  private stopBeating(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private emit(note: ProgressNote): void {
    this.last = note.progress;
    this.sink?.(note);
  }
}
