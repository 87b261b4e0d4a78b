/**
 * The port ext-tasks drives tasks through (`ConnectedMcpSessionPort`), over one live
 * connection of ours. ext-tasks offers an adapter over an SDK `Client`
 * (`createTaskSessionFromClient`), but it takes over the client's fallback handlers and
 * `onclose`, sends through the SDK's codecs (which refuse 2026-07-28 task handles, so it
 * then needs a raw path of the host's anyway), and, loaded beside our CommonJS SDK, tells
 * protocol errors from failures by an `instanceof` of its own copy of the SDK. Ours:
 *
 * - sends every task request through our client, with the sign-in, and reads the result
 *   as the server sent it (the wire tap keeps it);
 * - frames 2026-07-28 requests with the tasks extension in their capabilities;
 * - clamps every poll hint the server gives (bounds.ts) before ext-tasks reads it;
 * - tells a JSON-RPC error (kept as such) from a failure to send (a `DispatchError`);
 * - is offered only the questions that name a task (`related-task`): the others stay ours.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type {
  ConnectedMcpSessionPort,
  DispatchOptions,
  IncomingServerRequest,
  JsonRpcResponse,
  SessionTaskCapabilities,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { isRecord } from '../../../base/is-record';
import { TASKS_EXTENSION, withCallCapabilities } from '../capabilities';
import { RpcError, rpcCodeOf } from '../../errors';
import { errorMessage } from '../../../base/error-message';
import type { Sdk, TasksLib } from '../../sdk/sdk-loader';
import { clampTaskHints } from './bounds';
import type { Connected } from '../transports';

/** setTimeout's largest delay: our own bounds (bounds.ts) limit how long a task is waited for. */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** Which Tasks generation a server speaks: 2025-11-25's `tasks` capability, or the 2026-07-28 extension. */
export function taskGeneration(era: 'legacy' | 'modern' | undefined, capabilities: Readonly<Record<string, unknown>> | undefined): SessionTaskCapabilities {
  if (era === 'modern') {
    const extensions = capabilities?.extensions;
    return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]) ? { generation: 'v2', capabilities: {} } : { generation: 'none' };
  }
  const tasks = capabilities?.tasks;
  return isRecord(tasks) ? { generation: 'v1', capabilities: structuredClone(tasks) as never } : { generation: 'none' };
}

/** The task a server's request says it belongs to (`_meta["io.modelcontextprotocol/related-task"].taskId`). */
export function relatedTaskOf(params: unknown): string | undefined {
  const meta = isRecord(params) ? params._meta : undefined;
  const related = isRecord(meta) ? meta[RELATED_TASK_META_KEY] : undefined;
  return isRecord(related) && typeof related.taskId === 'string' ? related.taskId : undefined;
}

export interface TaskPortDeps {
  readonly endpointId: string;
  readonly sdk: Sdk;
  readonly lib: TasksLib;
  readonly live: Connected;
  readonly taskCapabilities: SessionTaskCapabilities;
  readonly declared: ClientCapabilities;
  readonly authorized: <T>(signal: AbortSignal, operation: () => Promise<T>) => Promise<T>;
}

export class TaskPort implements ConnectedMcpSessionPort {
  readonly endpointId: string;
  readonly taskCapabilities: SessionTaskCapabilities;
  private readonly requestHandlers = new Set<(incoming: IncomingServerRequest) => Promise<JsonRpcResponse | undefined>>();
  private readonly notificationListeners = new Set<(notification: JsonValue) => void>();
  private readonly invalidationListeners = new Set<(reason: unknown) => void>();
  private closedBy: unknown;
  private isInvalidated = false;

  constructor(private readonly deps: TaskPortDeps) {
    this.endpointId = deps.endpointId;
    this.taskCapabilities = deps.taskCapabilities;
  }

  get invalidated(): boolean {
    return this.isInvalidated;
  }

  async dispatch(request: JsonValue, options: DispatchOptions = {}): Promise<JsonRpcResponse> {
    if (this.isInvalidated) throw new this.deps.lib.DispatchError(`the connection is closed: ${errorMessage(this.closedBy)}`);
    if (!isRecord(request) || typeof request.method !== 'string') throw new this.deps.lib.DispatchError('a task request must be a JSON-RPC request object');
    const method = request.method;
    const given = isRecord(request.params) ? (request.params as Record<string, unknown>) : {};
    // 2026-07-28: each request declares the extension, or the server must refuse it (-32021).
    const params = this.taskCapabilities.generation === 'v2' ? withCallCapabilities(given, this.deps.declared, false) : given;
    const { live, sdk, lib } = this.deps;
    const signal = options.signal ?? new AbortController().signal;
    const watched = live.tap.watch(method, params, true);
    try {
      const result = await this.deps.authorized(signal, () =>
        live.client.request({ method, params } as never, sdk.AnyResultSchema, {
          timeout: options.context?.requestTimeoutMs ?? NO_SDK_TIMEOUT,
          signal,
          ...(options.context?.headers && { headers: options.context.headers }),
        } as never),
      );
      return { kind: 'result', result: clampTaskHints(watched.rawResult() ?? result) as JsonValue };
    } catch (error) {
      // The SDK refuses a 2026-07-28 task handle (an unsupported result type): the server sent it all the same.
      const raw = watched.rawResult();
      if (raw !== undefined && !signal.aborted) return { kind: 'result', result: clampTaskHints(raw) as JsonValue };
      const code = rpcCodeOf(error);
      if (code !== undefined && !signal.aborted) {
        const data = (error as { data?: unknown }).data;
        return { kind: 'error', error: { code, message: errorMessage(error), ...(data !== undefined && { data: data as JsonValue }) } };
      }
      throw new lib.DispatchError(errorMessage(error), false, { cause: error });
    } finally {
      watched.done();
    }
  }

  onServerRequest(handler: (incoming: IncomingServerRequest) => Promise<JsonRpcResponse | undefined>): () => void {
    this.requestHandlers.add(handler);
    return () => this.requestHandlers.delete(handler);
  }

  onNotification(listener: (notification: JsonValue) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  onInvalidated(listener: (reason: unknown) => void): () => void {
    this.invalidationListeners.add(listener);
    return () => this.invalidationListeners.delete(listener);
  }

  /**
   * A server's question that names a task of ours: the session answers it (through our
   * input handler) or, when no task of ours has that id, leaves it (undefined).
   */
  async offerRequest(method: string, params: unknown, requestContext: unknown): Promise<Record<string, unknown> | undefined> {
    const [handler] = this.requestHandlers;
    if (!handler) return undefined;
    const response = await handler({ request: { jsonrpc: '2.0', id: 0, method, params: (params ?? {}) as JsonValue }, requestContext });
    if (response === undefined) return undefined;
    if (response.kind === 'error') throw new RpcError(response.error.code, response.error.message, response.error.data);
    return response.result as Record<string, unknown>;
  }

  /** A notification ext-tasks may read (task status); clamped like every task it sees. */
  offerNotification(method: string, params: unknown): void {
    const notification = { jsonrpc: '2.0', method, params: clampTaskHints(params) } as JsonValue;
    for (const listener of [...this.notificationListeners]) listener(notification);
  }

  invalidate(reason: unknown): void {
    if (this.isInvalidated) return;
    this.isInvalidated = true;
    this.closedBy = reason;
    for (const listener of [...this.invalidationListeners]) listener(reason);
  }
}
