/**
 * The live tasks of one server (tasks of ours: tool calls it runs as tasks), for the UI's
 * Tasks section and the runner: what each is, its status and message, when it started,
 * and how to cancel it. Fires a change for every task added, updated or gone, and a
 * settlement for a resumed task, whose result nobody's call is waiting for.
 */
import { Listeners } from '../../../base/listeners';
import type { SettledTask, TaskInfo, TaskStatus } from '../../ports';
import { clampPollInterval, statusText } from './bounds';

/** What a poll or notification says of a task (ext-tasks' `TaskView`, the fields we keep). */
export interface TaskSnapshot {
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly ttl: number | null;
  readonly pollInterval?: number;
}

export class TaskList {
  readonly onDidChange = new Listeners<void>();
  readonly onSettled = new Listeners<SettledTask>();
  private readonly tasks = new Map<string, TaskInfo>();

  list(): readonly TaskInfo[] {
    return [...this.tasks.values()];
  }

  get(taskId: string): TaskInfo | undefined {
    return this.tasks.get(taskId);
  }

  get size(): number {
    return this.tasks.size;
  }

  add(task: TaskInfo): TaskInfo {
    this.tasks.set(task.taskId, task);
    this.onDidChange.fire();
    return task;
  }

  /** Takes what a poll said (bounded: status text as text, poll interval clamped); undefined if the task is gone. */
  update(taskId: string, snapshot: TaskSnapshot): TaskInfo | undefined {
    const current = this.tasks.get(taskId);
    if (!current) return undefined;
    const message = statusText(snapshot.statusMessage);
    const { statusMessage: _old, ...rest } = current;
    const next: TaskInfo = {
      ...rest,
      status: snapshot.status,
      ...(message !== undefined && { statusMessage: message }),
      ttlMs: snapshot.ttl,
      pollIntervalMs: clampPollInterval(snapshot.pollInterval),
    };
    this.tasks.set(taskId, next);
    this.onDidChange.fire();
    return next;
  }

  remove(taskId: string): void {
    if (this.tasks.delete(taskId)) this.onDidChange.fire();
  }
}
