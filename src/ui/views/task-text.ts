/**
 * How a running task of ours reads in the Servers view: its row ("tool · status · 2m 13s"),
 * its status message beside it, the Tasks group's summary, and a tooltip that says who
 * started it and what a reload of the window does to it (a 2026-07-28 task is kept, a
 * 2025-era one is lost). Pure, without `vscode`: the view puts these into labels and plain
 * tooltips only; the server's text in them (the tool's title, the status message) comes
 * bounded by the connection (one line, plain text, at most 300 characters).
 */
import type { TaskInfo, TaskStatus } from '../../mcp/ports';

/** "13s", "2m 13s", "1h 04m": how long a task has run. */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const STATUS_WORDS: Record<TaskStatus, string> = {
  working: 'working',
  input_required: 'needs your answer',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

export function taskLabel(task: TaskInfo, now: number): string {
  return `${task.tool} · ${STATUS_WORDS[task.status]} · ${elapsedText(now - task.startedAt)}`;
}

/** The server's own words on where the task is, if it gave any. */
export function taskDescription(task: TaskInfo): string {
  return task.statusMessage ?? '';
}

/** "2 running, 1 needs your answer": beside the Tasks group. */
export function tasksSummary(tasks: readonly TaskInfo[]): string {
  const waiting = tasks.filter((t) => t.status === 'input_required').length;
  return `${tasks.length} running${waiting > 0 ? `, ${waiting} ${waiting === 1 ? 'needs' : 'need'} your answer` : ''}`;
}

function whoStarted(task: TaskInfo): string {
  if (task.resumed) return 'Picked up again after a reload: its result opens when it finishes (you are told, with Open Result).';
  if (task.caller?.kind === 'person') return 'Started by you (Run Tool): its result opens when it finishes.';
  if (task.caller?.kind === 'agent') return `Started by ${task.caller.name} (through the gateway): the agent gets its result.`;
  return 'Started by a caller of this server: the caller gets its result.';
}

function afterReload(task: TaskInfo): string {
  return task.generation === '2026-07-28'
    ? `Kept across a reload of the window: when ${task.server} starts again, the task is followed again and a question it still waits on is asked again.`
    : `Not kept across a reload of the window or a restart of ${task.server} (MCP 2025-11-25 tasks live in the session that started them): after one, its questions cannot reach you and its result is lost.`;
}

export function taskTooltip(task: TaskInfo, now: number): string {
  const lines = [
    `${task.tool} on ${task.server}: an MCP task (${task.generation}), ${STATUS_WORDS[task.status]}`,
    ...(task.statusMessage ? [task.statusMessage] : []),
    '',
    `Running for ${elapsedText(now - task.startedAt)}.`,
    whoStarted(task),
    ...(task.ttlMs !== null ? [`${task.server} keeps it for ${elapsedText(task.ttlMs)} (its time to live).`] : []),
    afterReload(task),
    '',
    `Cancel asks ${task.server} to stop it (tasks/cancel); a question it asked closes.`,
  ];
  return lines.join('\n');
}
