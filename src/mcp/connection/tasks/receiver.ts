/**
 * Task-backed questions a 2025-11-25 server sends us (`elicitation/create` or
 * `sampling/createMessage` with `params.task`): ext-tasks' receiver (`bindTaskReceiver`)
 * creates the task, answers `CreateTaskResult` at once, and serves the server's
 * `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` for it; the question goes
 * to the person through the bridge like any other and waits in Pending Inputs, with no
 * deadline but the task's time to live (the one the server asked for, bounded), at which
 * it is withdrawn, saying so. A sampling request goes to the calling agent.
 *
 * The receiver is bound to a stand-in for the SDK client: it registers handlers with
 * `setRequestHandler`, which on the real client would route every plain question through
 * the SDK's validation (stripping what we must see, `pattern` among it) and refuse the
 * plain ones it does not take. Here our fallback handler hands it only what is its own,
 * raw. ext-tasks' receiver gives every task one TTL option (a function it calls without
 * the request), so the requested TTL is handed over just before it creates the task.
 *
 * As with every question (server-requests.ts), one is taken only while a call of ours is
 * in flight (SEP-2260), and closes when every call it may belong to has ended: the
 * reference server reads the answer within the tool call that asked.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { TaskReceiverBinding } from '@modelcontextprotocol/ext-tasks/receiver';
import { isRecord } from '../../../base/is-record';
import type { ElicitBridge, InFlightCall } from '../elicit-bridge';
import { RpcCode, RpcError, toRpcError } from '../../errors';
import { errorMessage } from '../../../base/error-message';
import type { ServerLog } from '../../ports';
import type { TasksLib } from '../../sdk/sdk-loader';
import type { ServerRequests } from '../server-requests';
import { POLL_DEFAULT_MS, RECEIVED_MAX_TASKS, receivedTtl } from './bounds';

type Handler = (request: unknown, context: unknown) => Promise<Record<string, unknown>>;

export interface ReceiverDeps {
  readonly server: string;
  readonly lib: TasksLib;
  /** Sends the receiver's status notifications. */
  readonly client: Pick<Client, 'notification'>;
  readonly bridge: ElicitBridge;
  readonly requests: ServerRequests;
  inFlight(): readonly InFlightCall[];
  /** Sampling was declared (and with it `tasks.requests.sampling.createMessage`). */
  readonly relaySampling: boolean;
  readonly log: ServerLog;
  readonly onRefused?: (calls: readonly InFlightCall[], error: RpcError) => void;
}

const TASK_METHODS = new Set(['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list']);
const QUESTION_METHODS = new Set(['elicitation/create', 'sampling/createMessage']);

export class TaskReceiver {
  private readonly handlers = new Map<string, Handler>();
  private readonly binding: TaskReceiverBinding;
  /** Handed from the request to the task ext-tasks creates for it, synchronously. */
  private handing: { ttlMs: number; calls: readonly InFlightCall[]; at: number } | undefined;
  private readonly cancelled = new Set<string>();

  constructor(private readonly deps: ReceiverDeps) {
    const standIn = {
      _requestHandlers: this.handlers,
      setRequestHandler: (method: string, handler: Handler) => this.handlers.set(method, handler),
      notification: (notification: never) => deps.client.notification(notification),
    };
    this.binding = deps.lib.bindTaskReceiver(standIn as unknown as Client, {
      methods: { 'elicitation/create': true, 'sampling/createMessage': deps.relaySampling },
      ttlMs: () => this.handing?.ttlMs ?? null,
      pollIntervalMs: POLL_DEFAULT_MS,
      maxTasks: RECEIVED_MAX_TASKS,
      elicitation: (request, context) => this.elicit(request.params, context),
      ...(deps.relaySampling && { sampling: (request, context) => this.sample(request.params, context) }),
      onError: (error, context) => deps.log.info(`task-backed ${context.method}${context.taskId ? ` (task ${context.taskId})` : ''}: ${errorMessage(error)}`),
    });
  }

  /** Whether a request from the server is the receiver's: a task-backed question, or a request about such a task. */
  handles(method: string, params: unknown): boolean {
    return TASK_METHODS.has(method) || (QUESTION_METHODS.has(method) && isRecord(params) && 'task' in params);
  }

  async handle(method: string, params: unknown, context: unknown): Promise<Record<string, unknown>> {
    const handler = this.handlers.get(method);
    if (!handler) throw new RpcError(RpcCode.methodNotFound, `Method not found: ${method}`);
    const request = { method, params: params ?? {} };
    if (method === 'tasks/cancel' && isRecord(params) && typeof params.taskId === 'string') this.cancelled.add(params.taskId);
    if (!QUESTION_METHODS.has(method)) {
      const answer = await this.asRpc(() => handler(request, context));
      if (method === 'tasks/get') this.deps.log.trace(`served tasks/get for the task-backed question ${String((params as { taskId?: unknown }).taskId)}: ${String(answer.status)}`);
      return answer;
    }
    const calls = this.admit(method);
    const task = isRecord(params) && isRecord(params.task) ? params.task : {};
    // `at` is taken before the receiver's own clock starts, so its expiry is never before ours.
    this.handing = { ttlMs: receivedTtl(task.ttl), calls, at: Date.now() };
    try {
      return await this.asRpc(() => handler(request, context));
    } finally {
      this.handing = undefined;
    }
  }

  close(): void {
    this.binding.close();
  }

  /** Refuses before any task exists what the plain path would refuse: a question that belongs to no call, sampling nobody can answer. */
  private admit(method: string): readonly InFlightCall[] {
    const calls = this.deps.inFlight();
    const refuse = (why: string): never => {
      const error = new RpcError(RpcCode.invalidRequest, `${this.deps.server}: ${why}`);
      this.deps.log.warn(`refused a task-backed ${method}: ${why}`);
      if (calls.length > 0) this.deps.onRefused?.(calls, error);
      throw error;
    };
    if (calls.length === 0) refuse('this client only answers questions that belong to a request it sent, and none of its calls is in flight (MCP SEP-2260)');
    if (method === 'sampling/createMessage') {
      if (calls.length > 1) refuse(`sampling refused: ${calls.length} calls are in flight and the request does not say which one it belongs to`);
      if (!calls[0].sampling) refuse(`sampling refused: the caller of ${calls[0].name} cannot answer sampling requests`);
    }
    return calls;
  }

  private async asRpc(run: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    try {
      return await run();
    } catch (error) {
      // ext-tasks' receiver throws plain Errors ("Unknown or expired task"): a bad request of the server's, said as such.
      throw error instanceof RpcError ? error : new RpcError(RpcCode.invalidParams, errorMessage(error));
    }
  }

  /** The question of one task, until the person answers or the task ends (cancelled, expired, the connection gone). */
  private async elicit(params: Record<string, unknown>, context: { taskId: string; signal: AbortSignal }): Promise<Record<string, never>> {
    const { ttlMs, calls, at } = this.take();
    const expiresAt = at + ttlMs;
    const withdrawn = new AbortController();
    const onEnded = (): void => withdrawn.abort(new Error(this.whyEnded(context.taskId, expiresAt, ttlMs)));
    if (context.signal.aborted) onEnded();
    context.signal.addEventListener('abort', onEnded, { once: true });
    const { task: _task, ...question } = params;
    try {
      const result = await this.deps.bridge.elicit(question, withdrawn.signal, calls, { background: true, untimed: true, reasonAsIs: true });
      return { ...result } as unknown as Record<string, never>;
    } catch (error) {
      const refusal = toRpcError(error);
      this.deps.log.warn(`refused a task-backed question (${refusal.code}): ${refusal.message}`);
      this.deps.onRefused?.(calls, refusal);
      throw refusal;
    } finally {
      context.signal.removeEventListener('abort', onEnded);
      this.cancelled.delete(context.taskId);
    }
  }

  private async sample(params: Record<string, unknown>, context: { taskId: string; signal: AbortSignal }): Promise<Record<string, never>> {
    this.take();
    const { task: _task, ...request } = params;
    try {
      return (await this.deps.requests.sample(request, context.signal)) as Record<string, never>;
    } finally {
      this.cancelled.delete(context.taskId);
    }
  }

  private take(): { ttlMs: number; calls: readonly InFlightCall[]; at: number } {
    const handing = this.handing;
    this.handing = undefined;
    return handing ?? { ttlMs: receivedTtl(undefined), calls: this.deps.inFlight(), at: Date.now() };
  }

  private whyEnded(taskId: string, expiresAt: number, ttlMs: number): string {
    if (this.cancelled.has(taskId)) return `${this.deps.server} cancelled the task this question belonged to`;
    if (Date.now() >= expiresAt) return `the task's time to live ran out (${describeMs(ttlMs)}) before it was answered`;
    return `${this.deps.server} disconnected`;
  }
}

function describeMs(ms: number): string {
  if (ms >= 60 * 60_000) return `${Math.round(ms / (60 * 60_000))} h`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
