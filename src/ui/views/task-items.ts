/**
 * The running MCP tasks in the Servers view: a "Tasks" group first under a running server
 * that has any, one row per task ("tool · status · 2m 13s", its status message beside it,
 * a tooltip that says who started it and what a reload does to it), with Cancel inline;
 * and the clock that keeps the elapsed times current, ticking only while a task runs.
 * Server text goes into labels, descriptions and plain-text tooltips only.
 */
import * as vscode from 'vscode';
import type { ServerConnection } from '../../mcp/connection/connection';
import { showError, showInfo } from '../notify';
import { errorMessage } from '../../base/error-message';
import type { TaskInfo } from '../../mcp/ports';
import type { ServerEntry } from '../../mcp/servers/manager';
import type { LiveTasks } from '../servers/live-tasks';
import { oneLine, plain } from '../text';
import { taskDescription, taskLabel, tasksSummary, taskTooltip } from './task-text';

export const CANCEL_TASK_COMMAND = 'elicitationHost.cancelTask';

export interface TasksNode {
  readonly kind: 'tasks';
  readonly entry: ServerEntry;
  readonly connection: ServerConnection;
  /** A new one each time the group appears, so it opens expanded (the tree remembers a collapsed id, across reloads too). */
  readonly appearance: string;
}

export interface TaskNode {
  readonly kind: 'task';
  readonly entry: ServerEntry;
  readonly task: TaskInfo;
}

export function tasksItem(node: TasksNode): vscode.TreeItem {
  const tasks = node.connection.tasks.list();
  const item = new vscode.TreeItem('Tasks', vscode.TreeItemCollapsibleState.Expanded);
  item.id = `${node.entry.id}#tasks/${node.appearance}`;
  item.description = tasksSummary(tasks);
  item.tooltip = plain(`MCP tasks of ours that ${node.entry.definition.name} is running: tool calls that go on in the background. Their questions wait in Pending Inputs.`);
  item.iconPath = new vscode.ThemeIcon('tasklist');
  item.contextValue = 'tasks';
  return item;
}

export function taskItem(node: TaskNode, now: number): vscode.TreeItem {
  const { task } = node;
  const item = new vscode.TreeItem(oneLine(taskLabel(task, now), 200));
  item.id = `${node.entry.id}#task/${task.taskId}`;
  item.description = oneLine(taskDescription(task), 200);
  item.tooltip = plain(taskTooltip(task, now));
  item.iconPath = new vscode.ThemeIcon(task.status === 'input_required' ? 'question' : 'sync~spin');
  item.contextValue = 'task';
  return item;
}

/** Cancel on a task's row: `tasks/cancel`, which also closes a question it asked; `cancelled` hears of it first. */
export async function cancelTask(node: TaskNode | undefined, cancelled: (task: TaskInfo) => void): Promise<void> {
  if (node?.kind !== 'task') return;
  const { server, taskId, tool } = node.task;
  // The row may be a moment old: the live list says whether the task still runs.
  const task = node.entry.connection?.tasks.get(taskId);
  if (!task) {
    void showInfo(`The task of ${tool} on ${server} has already ended.`);
    return;
  }
  cancelled(task);
  try {
    await task.cancel();
  } catch (error) {
    void showError(`Could not cancel the task of ${tool} on ${server}: ${errorMessage(error)}`);
  }
}

/**
 * Refreshes the task rows: at once when a task comes, goes or changes status or message
 * (not on every poll that changed nothing), and every second while any runs, for the
 * elapsed times. No timer runs while no task does.
 */
export class TaskClock implements vscode.Disposable {
  private timer: ReturnType<typeof setInterval> | undefined;
  private shown = '';
  private readonly stop: () => void;

  /**
   * @param refresh redraws the tree (a task came, went or changed)
   * @param tick redraws the task rows alone (their elapsed times)
   */
  constructor(
    private readonly tasks: LiveTasks,
    private readonly refresh: () => void,
    private readonly tick: () => void,
  ) {
    this.stop = tasks.onDidChange.add(() => this.changed());
    this.changed();
  }

  private changed(): void {
    const live = this.tasks.all();
    const now = live.map((t) => `${t.server}\u0000${t.taskId}\u0000${t.status}\u0000${t.statusMessage ?? ''}`).join('\u0001');
    if (now !== this.shown) {
      this.shown = now;
      this.refresh();
    }
    if (live.length > 0 && !this.timer) this.timer = setInterval(() => this.tick(), 1000);
    if (live.length === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  dispose(): void {
    this.stop();
    if (this.timer) clearInterval(this.timer);
  }
}
