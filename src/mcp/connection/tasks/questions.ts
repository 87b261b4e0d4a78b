/**
 * A task's questions (its `input_required` requests), as ext-tasks hands them to us:
 * 2025-11-25 ones arrive as `elicitation/create` requests naming the task (on the
 * `tasks/result` stream), 2026-07-28 ones in `tasks/get`'s `inputRequests`, answered by
 * ext-tasks with `tasks/update`. Either way they go to the person through the bridge and
 * the broker like every question, headed "tool (background task)"; the answer (accept,
 * decline or cancel, never confused with cancelling the task) goes back by the
 * generation's path.
 *
 * A question closes, saying why, when its task ends, is cancelled or expires. ext-tasks
 * ends a 2025-era question's lifetime itself (it polls beside it); its 2026 driver waits on
 * our answer without polling, so while a 2026 question is open we poll the task ourselves
 * and pass what we see to ext-tasks as the task's notification (which ends the question's
 * lifetime there too, without a `tasks/update` to a task that is over).
 */
import type { ApplicationInputHandler, TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import type { TaskId } from '@modelcontextprotocol/ext-tasks/core';
import type { ElicitResult } from '../../../elicitation/model';
import type { ElicitBridge, InFlightCall } from '../elicit-bridge';
import { errorMessage } from '../../../base/error-message';
import type { Root, ServerLog } from '../../ports';
import type { TasksLib } from '../../sdk/sdk-loader';
import { clampPollInterval } from './bounds';
import type { TaskPort } from './port';

/** What ext-tasks carries with each task of ours and gives back with its questions. */
export interface TaskCall {
  /** The call the task belongs to, or a stand-in for a resumed task nobody's call waits on. */
  readonly call: InFlightCall;
  readonly taskId: string;
  readonly generation: 'v1' | 'v2';
}

export interface TaskQuestionDeps {
  readonly server: string;
  readonly lib: TasksLib;
  readonly bridge: ElicitBridge;
  readonly port: TaskPort;
  readonly session: () => TaskEnabledSession<TaskCall>;
  readonly roots: () => readonly Root[];
  readonly log: ServerLog;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function taskInputHandler(deps: TaskQuestionDeps): ApplicationInputHandler<TaskCall>['handle'] {
  return deps.lib.createApplicationInputHandler<TaskCall>({
    elicitation: async (request, context) => {
      const { call, taskId, generation } = context.applicationContext;
      const withdrawn = new AbortController();
      const onEnded = (): void => withdrawn.abort(new Error(whyEnded(deps, context.signal?.reason)));
      if (context.signal?.aborted) onEnded();
      context.signal?.addEventListener('abort', onEnded, { once: true });
      const watching = generation === 'v2' && context.inputId !== undefined ? watchWhileAsking(deps, taskId, context.inputId, withdrawn) : undefined;
      try {
        const result: ElicitResult = await deps.bridge.elicit(request.params, withdrawn.signal, [call], { background: true, untimed: true, reasonAsIs: true });
        return { ...result } as never;
      } finally {
        context.signal?.removeEventListener('abort', onEnded);
        watching?.abort();
      }
    },
    sampling: async (request, context) => {
      const { call } = context.applicationContext;
      if (!call.sampling) throw new Error(`${deps.server} asked ${call.name}'s caller for sampling (an LLM completion), which it cannot answer`);
      const resume = call.watchdog.pause();
      try {
        return (await call.sampling(request.params as never, AbortSignal.any([call.signal, ...(context.signal ? [context.signal] : [])]))) as never;
      } finally {
        resume();
      }
    },
    roots: () => ({ roots: deps.roots().map((r) => ({ ...r })) }),
  });
}

/** Why ext-tasks ended a question's lifetime, in words. */
function whyEnded(deps: TaskQuestionDeps, reason: unknown): string {
  if (reason instanceof deps.lib.TaskCancelledError) return 'the task was cancelled';
  if (reason instanceof deps.lib.TaskExecutionClosedError) return `${deps.server} stopped, so its task is no longer followed here`;
  return 'the task ended before it was answered';
}

/**
 * Polls a 2026-07-28 task while one of its questions is open: a task that moved on is
 * passed to ext-tasks as its notification (a terminal one ends the question there); a
 * question the server no longer asks, or a task it no longer knows (expired), is
 * withdrawn here. Returns the controller that stops the polling.
 */
function watchWhileAsking(deps: TaskQuestionDeps, taskId: string, inputId: string, withdrawn: AbortController): AbortController {
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, withdrawn.signal]);
  void (async () => {
    let interval = clampPollInterval(undefined);
    while (!signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, interval);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      if (signal.aborted) return;
      let raw: Record<string, unknown>;
      try {
        raw = (await deps.session().task(taskId as TaskId).snapshot(signal)).raw as Record<string, unknown>;
      } catch (error) {
        if (signal.aborted) return;
        withdrawn.abort(new Error(`${deps.server} no longer knows the task (${errorMessage(error)}): it may have expired`));
        return;
      }
      interval = clampPollInterval(raw.pollIntervalMs);
      const inputRequests = raw.inputRequests as Record<string, unknown> | undefined;
      if (raw.status === 'input_required' && inputRequests && inputId in inputRequests) continue;
      const { resultType: _complete, ...task } = raw;
      deps.port.offerNotification('notifications/tasks', task);
      if (!TERMINAL.has(String(raw.status))) withdrawn.abort(new Error(`${deps.server} no longer asks this question (the task went on without it)`));
      return;
    }
  })().catch((error: unknown) => deps.log.warn(`watching task ${taskId}: ${errorMessage(error)}`));
  return stop;
}
