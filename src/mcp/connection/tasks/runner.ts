/**
 * Follows one task of ours to its end: a tool call the server answered with a task
 * (2025-11-25 `CreateTaskResult`, 2026-07-28 `resultType: "task"`), or a 2026 task
 * resumed from its kept reference after a reload. ext-tasks drives it (polling at the
 * clamped interval, status notifications, its questions through questions.ts, the
 * 2026 `tasks/update` bookkeeping, `tasks/cancel`); this adds what a host decides:
 *
 * - the task in the server's live list, with its status message as text and Cancel;
 * - each status change told to the caller (Run Tool's progress, the runner's lines);
 * - the caller's cancel cancels the task, and lets go of it even when the server refuses
 *   (else it would be polled for the connection's life, for a call that has ended);
 *   the connection stopping only lets go of it
 *   (a 2026 task's reference stays kept, to be resumed; a 2025-era one is lost: its
 *   questions come only on the `tasks/result` stream of the session that created it, and
 *   the reference server keeps tasks per session, or in a stdio process that ends);
 * - the total wait is bounded: past it the task is cancelled and the call says why;
 * - what ext-tasks lacks for 2025-11-25 `input_required`: it polls `tasks/get` until the
 *   task ends and only then asks `tasks/result`, but the server delivers the task's
 *   queued questions on that stream only; so while the task is `input_required` one
 *   `tasks/result` is kept open (the spec's "SHOULD preemptively call tasks/result").
 */
import type { SerializedTaskReference, TaskEnabledSession, TaskView } from '@modelcontextprotocol/ext-tasks/client';
import { abortMessage, CallError } from '../../errors';
import { errorMessage } from '../../../base/error-message';
import type { Caller, ServerLog, TaskInfo, TaskRecord, TaskReferences } from '../../ports';
import { clampPollInterval, type TaskBounds } from './bounds';
import type { TaskList } from './list';
import type { TaskPort } from './port';
import type { TaskCall } from './questions';
import type { InFlightCall } from '../elicit-bridge';

export interface TaskRunDeps {
  readonly server: string;
  readonly session: TaskEnabledSession<TaskCall>;
  readonly port: TaskPort;
  readonly list: TaskList;
  readonly bounds: TaskBounds;
  readonly references?: TaskReferences;
  readonly log: ServerLog;
}

/** One task to follow. */
export interface TaskToFollow {
  readonly generation: 'v1' | 'v2';
  readonly taskId: string;
  /** The tool's title or name, as the person knows it. */
  readonly tool: string;
  readonly startedAt: number;
  /** The call it belongs to (or a stand-in for a resumed one): its questions are asked for it. */
  readonly call: InFlightCall;
  readonly caller?: Caller;
  readonly resumed?: boolean;
  /** Fires when the caller cancels: the task is cancelled. */
  readonly cancelSignal?: AbortSignal;
  /** Fires when the connection stops: the task is let go of, not cancelled. */
  readonly detachSignal: AbortSignal;
  readonly onTask?: (task: TaskInfo) => void;
}

const GENERATION_NAME = { v1: '2025-11-25', v2: '2026-07-28' } as const;

/**
 * A task's result as the server sent it (an object), `resultType` dropped as the SDK drops it
 * from a plain call's: ext-tasks' own codec wants `resultType: "complete"` inside a 2026
 * task's `result`, which the extension's own example leaves out, and would fail the task.
 */
const TOOL_RESULT = {
  parse(value: unknown): { success: true; value: Record<string, unknown> } | { success: false; error: never } {
    // ext-tasks' decode error type (ProtocolDecodeError) is a value of its module: an Error with `details` serves.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { success: false, error: Object.assign(new Error('the task\'s result is not an object'), { details: {} }) as never };
    const { resultType: _complete, ...result } = value as Record<string, unknown>;
    return { success: true, value: result };
  },
};

/** Follows the task to its end; resolves with its result, rejects with a CallError saying how it ended otherwise. */
export async function followTask(deps: TaskRunDeps, task: TaskToFollow): Promise<Record<string, unknown>> {
  const { server, session, list, log } = deps;
  const { taskId, generation } = task;
  const reference = { endpointId: deps.port.endpointId, generation, taskId, originalOperation: 'tools/call' } as const;
  const execution = await session.resumeTask<Record<string, unknown>>(reference as SerializedTaskReference, {
    applicationContext: { call: task.call, taskId, generation },
    resultCodec: TOOL_RESULT,
  });
  if (execution.kind !== 'task') throw new CallError(`${server} gave a task that cannot be followed`);
  if (list.size >= deps.bounds.maxLive) {
    // A server that answers plain calls with tasks (2026-07-28: its choice) is held to the bound too.
    await cancelAndLetGo(execution, taskId, log);
    throw new CallError(`${server} already runs ${list.size} tasks of ours (at most ${deps.bounds.maxLive}); the task of ${task.tool} was cancelled`);
  }
  const record: TaskRecord | undefined = generation === 'v2' ? { server, tool: task.tool, startedAt: task.startedAt, reference: { ...reference, generation: 'v2' } } : undefined;
  if (record) deps.references?.save(record);
  let info = list.add({
    server,
    taskId,
    tool: task.tool,
    generation: GENERATION_NAME[generation],
    status: 'working',
    startedAt: task.startedAt,
    ttlMs: null,
    pollIntervalMs: clampPollInterval(undefined),
    ...(task.caller && { caller: task.caller }),
    ...(task.resumed && { resumed: true }),
    cancel: () => execution.cancel(),
  });
  const drain = generation === 'v1' ? new QueuedQuestions(deps.port, taskId, log) : undefined;
  const seen = (view: TaskView): void => {
    info = list.update(taskId, view) ?? info;
    task.onTask?.(info);
    task.call.onProgress?.({ ...(info.statusMessage !== undefined && { message: info.statusMessage }) });
    if (view.status === 'input_required') drain?.open();
  };
  // The bound runs from the task's creation: a resumed task counts the time before the reload.
  const waited = Math.max(0, Date.now() - task.startedAt);
  const deadline = AbortSignal.timeout(Math.max(1, deps.bounds.maxWaitMs - waited));
  const stopped = AbortSignal.any([task.detachSignal, deadline, ...(task.cancelSignal ? [task.cancelSignal] : [])]);
  let forget = true;
  try {
    const settled = execution.settle({ onEvent: (event) => (event.type === 'task' ? seen(event.task) : undefined) });
    // Left behind when the wait ends first: what it rejects with then is not anyone's failure.
    settled.catch(() => undefined);
    const ended = await Promise.race([settled, whenAborted(stopped)]);
    if (ended === 'aborted') {
      if (task.cancelSignal?.aborted) {
        await cancelAndLetGo(execution, taskId, log);
        throw new CallError(abortMessage(task.cancelSignal));
      }
      if (deadline.aborted && !task.detachSignal.aborted) {
        await cancelAndLetGo(execution, taskId, log);
        throw new CallError(`${task.tool} on ${server} ran as a task for longer than ${Math.round(deps.bounds.maxWaitMs / 60_000)} min; it was cancelled`);
      }
      // The connection stopped: let go without cancelling; a 2026 task's reference stays for a resume.
      forget = false;
      await execution.detach();
      throw new CallError(`${abortMessage(task.detachSignal)}; ${record ? 'its task goes on and is picked up again when the server starts' : 'its task is no longer followed'}`);
    }
    const { outcome } = ended;
    if (outcome.status === 'completed') return outcome.result;
    if (outcome.status === 'cancelled') throw new CallError(`the task of ${task.tool} on ${server} was cancelled`);
    throw new CallError(`the task of ${task.tool} on ${server} failed: ${outcome.error.message}`, outcome.error.code);
  } finally {
    drain?.close();
    list.remove(taskId);
    if (record && forget) deps.references?.forget(server, taskId);
  }
}

/**
 * Cancels a task whose call is over. A server may refuse (`tasks/cancel` answered with an
 * error): the task goes on, but nobody waits for it any more, so it is let go of all the same,
 * and ext-tasks stops polling it.
 */
async function cancelAndLetGo(execution: { cancel(): Promise<void>; detach(): Promise<void> }, taskId: string, log: ServerLog): Promise<void> {
  try {
    await execution.cancel();
  } catch (error) {
    log.warn(`tasks/cancel for ${taskId} failed: ${errorMessage(error)}; the task is no longer followed`);
  } finally {
    await execution.detach();
  }
}

function whenAborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

/**
 * The one `tasks/result` kept open while a 2025-era task is `input_required`: the server
 * sends the task's queued questions on its stream (they come to us as requests naming the
 * task, and ext-tasks routes them to our input handler). Its answer is the task's result,
 * which ext-tasks asks again once it sees the task end.
 */
class QueuedQuestions {
  private running: Promise<void> | undefined;
  private readonly stop = new AbortController();

  constructor(
    private readonly port: TaskPort,
    private readonly taskId: string,
    private readonly log: ServerLog,
  ) {}

  open(): void {
    if (this.running || this.stop.signal.aborted) return;
    this.running = this.port
      .dispatch({ method: 'tasks/result', params: { taskId: this.taskId } }, { signal: this.stop.signal })
      .then(
        (response) => {
          if (response.kind === 'error') this.log.info(`tasks/result for ${this.taskId}: ${response.error.message}`);
        },
        (error: unknown) => {
          if (!this.stop.signal.aborted) this.log.warn(`tasks/result for ${this.taskId} failed: ${errorMessage(error)}`);
        },
      )
      .finally(() => (this.running = undefined));
  }

  close(): void {
    this.stop.abort(new Error('the task ended'));
  }
}
