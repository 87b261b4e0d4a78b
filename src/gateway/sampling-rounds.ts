/**
 * Upstream `sampling/createMessage` during a call, served by the agent that made the call.
 *
 * The gateway cannot hold its own request to the agent open while it asks the agent
 * something (MCP 2026-07-28 has no server-to-client requests), so a call that meets a
 * sampling request is suspended: the handler answers `input_required` with one
 * `sampling/createMessage` input request and a `requestState` naming the suspended call;
 * the agent's retry carries the completion, which goes to the upstream server, and the
 * handler waits for the call's next event (its result, or another sampling request).
 * 2025-era agents get the same rounds from the SDK's legacy shim as real
 * `sampling/createMessage` requests on their session: one path for both eras.
 *
 * A suspended call whose agent never comes back is abandoned after `idleMs`.
 */
import { randomBytes } from 'node:crypto';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import type { UpstreamProgress } from '../mcp/servers/upstream';

export type CallEvent<R> =
  | { readonly kind: 'done'; readonly result: R }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'sampling'; readonly params: CreateMessageRequestParams };

export type Sampler = (params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;

interface PendingSampling {
  readonly params: CreateMessageRequestParams;
  resolve(result: CreateMessageResult): void;
  reject(error: Error): void;
}

/** The key under which the one embedded sampling request travels. */
export const SAMPLING_KEY = 'sampling';

const DEFAULT_IDLE_MS = 5 * 60_000;

export class SuspendableCall<R> {
  readonly id = randomBytes(18).toString('base64url');
  /** Aborts the upstream call: the agent cancelled, or never came back. */
  readonly abort = new AbortController();
  private readonly queue: Array<PendingSampling> = [];
  private outcome: CallEvent<R> | undefined;
  private waiter: (() => void) | undefined;
  /** The sampling request sent to the agent and not answered yet. */
  private asked: PendingSampling | undefined;
  /** Where progress goes: the round being served now (each round has its own progress token). */
  onProgress: ((progress: UpstreamProgress) => void) | undefined;

  constructor(start: (sampler: Sampler, signal: AbortSignal, onProgress: (progress: UpstreamProgress) => void) => Promise<R>) {
    const sampler: Sampler = (params, signal) =>
      new Promise<CreateMessageResult>((resolve, reject) => {
        const pending: PendingSampling = { params, resolve, reject };
        const onAbort = (): void => {
          const at = this.queue.indexOf(pending);
          if (at >= 0) this.queue.splice(at, 1);
          reject(new Error('the sampling request was withdrawn'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.queue.push(pending);
        this.wake();
      });
    start(sampler, this.abort.signal, (progress) => this.onProgress?.(progress)).then(
      (result) => this.settle({ kind: 'done', result }),
      (error: unknown) => this.settle({ kind: 'failed', error }),
    );
  }

  /** The agent's answer to the sampling request it was sent (a completion, or why not). */
  answer(result: CreateMessageResult | Error): void {
    const asked = this.asked;
    this.asked = undefined;
    if (!asked) return;
    if (result instanceof Error) asked.reject(result);
    else asked.resolve(result);
  }

  /** Waits for the call's next event: its end, or a sampling request to send to the agent. */
  async next(signal: AbortSignal): Promise<CallEvent<R>> {
    for (;;) {
      if (this.outcome) return this.outcome;
      const pending = this.queue.shift();
      if (pending) {
        this.asked = pending;
        return { kind: 'sampling', params: pending.params };
      }
      await new Promise<void>((resolve) => {
        const onAbort = (): void => resolve();
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiter = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
      });
      this.waiter = undefined;
      if (signal.aborted && !this.outcome) return { kind: 'failed', error: signal.reason };
    }
  }

  private settle(event: CallEvent<R>): void {
    this.outcome ??= event;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the call ended'));
    this.wake();
  }

  private wake(): void {
    this.waiter?.();
  }
}

/** The calls suspended while their agent answers a sampling request, by `requestState`. */
export class SuspendedCalls {
  private readonly calls = new Map<string, { call: SuspendableCall<unknown>; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly idleMs = DEFAULT_IDLE_MS) {}

  /** Parks a call whose agent was just sent a sampling request. */
  park(call: SuspendableCall<unknown>): void {
    this.unpark(call.id);
    const timer = setTimeout(() => {
      this.calls.delete(call.id);
      call.abort.abort(new Error('the agent did not answer the sampling request'));
    }, this.idleMs);
    this.calls.set(call.id, { call, timer });
  }

  /** Takes back the call a retry names; undefined when it is unknown or was abandoned. */
  take<R>(requestState: string): SuspendableCall<R> | undefined {
    const entry = this.calls.get(requestState);
    if (!entry) return undefined;
    this.unpark(requestState);
    return entry.call as SuspendableCall<R>;
  }

  get size(): number {
    return this.calls.size;
  }

  /** Abandons every parked call (the endpoint closes). */
  clear(reason: string): void {
    for (const { call, timer } of this.calls.values()) {
      clearTimeout(timer);
      call.abort.abort(new Error(reason));
    }
    this.calls.clear();
  }

  private unpark(id: string): void {
    const entry = this.calls.get(id);
    if (entry) clearTimeout(entry.timer);
    this.calls.delete(id);
  }
}
