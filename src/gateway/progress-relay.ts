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

export class ProgressRelay {
  private last = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private unsubscribe: (() => void) | undefined;

  /** `sink` undefined: the caller gave no progress token, and nothing is sent. */
  constructor(private readonly sink: ProgressSink | undefined) {}

  /** Progress the upstream server (or our connection layer) reported. */
  forward(progress: UpstreamProgress): void {
    // "The question ended" is for our own progress view; the agent's heartbeat covers the wait.
    if (!this.sink || (progress.asking === false && progress.message === undefined && progress.progress === undefined)) return;
    const value = typeof progress.progress === 'number' && Number.isFinite(progress.progress) && progress.progress > this.last ? progress.progress : this.last + 1;
    const total = typeof progress.total === 'number' && progress.total >= value ? progress.total : undefined;
    this.emit({ progress: value, ...(total !== undefined && { total }), ...(progress.message !== undefined && { message: progress.message }) });
  }

  /**
   * Sends a note at once and then every `intervalMs` while `store` holds an open question
   * that `belongs` to this call; stops by itself when none is open, starts again when one
   * opens. Returns the function that ends the watch.
   */
  whileAsking(store: InputStore, belongs: (source: RequestSource) => boolean, intervalMs = DEFAULT_HEARTBEAT_MS): () => void {
    if (!this.sink) return () => undefined;
    const asking = (): boolean => store.state.requests.some((r) => r.status === 'open' && belongs(r.request.source));
    const update = (): void => {
      if (asking()) {
        if (this.timer) return;
        this.beat();
        this.timer = setInterval(() => (asking() ? this.beat() : this.stopBeating()), intervalMs);
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
    this.emit({ progress: this.last + 1, message: 'Waiting for the person to answer a question in VS Code' });
  }

  private stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private emit(note: ProgressNote): void {
    this.last = note.progress;
    this.sink?.(note);
  }
}
