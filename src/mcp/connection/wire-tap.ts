/**
 * Watches one client's transport: JSON-RPC traffic for the trace log (answers hidden), the
 * id of each request our calls send, and the untouched form of results that ask for input
 * (the SDK removes `resultType` from them on a 2025-era connection, and reshapes them on a
 * 2026 one, before we could read the shape the server sent), of 2026-07-28 task handles
 * (`resultType: "task"`, which the SDK refuses as an unsupported result type), and of
 * whatever a request watched with `keepRaw` got (the task requests ext-tasks drives).
 *
 * One tap per SDK `Client`: request ids restart at 0 with every client, so nothing kept
 * here may outlive it. A reconnect builds a new client and a new tap; the old one is
 * disposed. Only results a live call is waiting for are kept, and a call forgets its own
 * when it ends, however it ends (answered, aborted, failed).
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ServerLog } from '../ports';
import { withoutAnswers } from './redaction';

type Id = string | number;

/** One request a call is about to send, followed until the call lets go of it. */
export interface WatchedRequest {
  /** The result as the server sent it, when it asked for input; undefined otherwise. */
  rawResult(): unknown;
  /** The call is done with this request: forget its id and anything kept for it. */
  done(): void;
}

/** Identifies a request by what it asks, whatever `_meta` the SDK adds and however it orders keys. */
export function requestKey(method: string, params: Record<string, unknown>): string {
  const { _meta: _ignored, ...rest } = params;
  const stable = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(stable)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]))
        : value;
  return JSON.stringify([method, stable(rest)]);
}

export class WireTap {
  /** Calls waiting to learn the id of the request they are about to send, in order. */
  private readonly captures: Array<{ readonly key: string; readonly sent: (id: Id) => void }> = [];
  /** Ids some live call waits on: only their raw results are kept. */
  private readonly awaited = new Set<Id>();
  private readonly rawResults = new Map<Id, unknown>();
  private disposed = false;

  /** Patches `send` and sets `onmessage`: call before the client connects (the SDK chains an `onmessage` already set and calls it first). */
  constructor(
    transport: Transport,
    private readonly log: ServerLog,
  ) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.sent(message);
      return send(message, options);
    };
    transport.onmessage = (message: JSONRPCMessage) => this.received(message);
  }

  /** Ids whose every result is kept, whatever its shape. */
  private readonly keepAll = new Set<Id>();

  /** Follows the next request sent with this method and params; `keepRaw`: keep its result whatever its shape. */
  watch(method: string, params: Record<string, unknown>, keepRaw = false): WatchedRequest {
    let id: Id | undefined;
    const capture = {
      key: requestKey(method, params),
      sent: (sentId: Id) => {
        id = sentId;
        this.awaited.add(sentId);
        if (keepRaw) this.keepAll.add(sentId);
      },
    };
    this.captures.push(capture);
    const stopCapturing = (): void => {
      const index = this.captures.indexOf(capture);
      if (index >= 0) this.captures.splice(index, 1);
    };
    return {
      rawResult: () => {
        stopCapturing();
        return id === undefined ? undefined : this.rawResults.get(id);
      },
      done: () => {
        stopCapturing();
        if (id === undefined) return;
        this.awaited.delete(id);
        this.keepAll.delete(id);
        this.rawResults.delete(id);
      },
    };
  }

  /** How much the tap holds (for tests: it must drain as calls end). */
  get held(): number {
    return this.captures.length + this.awaited.size + this.keepAll.size + this.rawResults.size;
  }

  dispose(): void {
    this.disposed = true;
    this.captures.length = 0;
    this.awaited.clear();
    this.keepAll.clear();
    this.rawResults.clear();
  }

  private sent(message: JSONRPCMessage): void {
    if (this.log.traceEnabled) this.log.trace(`→ ${JSON.stringify(withoutAnswers(message))}`);
    const m = message as { id?: Id; method?: string; params?: Record<string, unknown> };
    if (this.disposed || m.id === undefined || !m.method || this.captures.length === 0) return;
    const key = requestKey(m.method, m.params ?? {});
    const index = this.captures.findIndex((c) => c.key === key);
    if (index >= 0) this.captures.splice(index, 1)[0].sent(m.id);
  }

  private received(message: JSONRPCMessage): void {
    if (this.log.traceEnabled) this.log.trace(`← ${JSON.stringify(message)}`);
    const m = message as { id?: Id; method?: string; result?: Record<string, unknown> };
    if (this.disposed || m.id === undefined || m.method !== undefined || !this.awaited.has(m.id)) return;
    if (!m.result || typeof m.result !== 'object') return;
    if (this.keepAll.has(m.id) || 'inputRequests' in m.result || m.result.resultType === 'task') this.rawResults.set(m.id, m.result);
  }
}
