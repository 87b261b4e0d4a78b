/**
 * The bounds on what a server controls in MCP Tasks: how often we poll (its hint, clamped),
 * how long we wait for one task, how many tasks of ours it may run at once, how long a
 * task-backed question it sends us may live, and its status text (plain text, one line,
 * of limited length). Pure: the port, the runner, the receiver and the tests share it.
 */
import { terminalSafe } from '../../../elicitation/plain-text';
import type { TaskSettings } from '../../ports';

export const POLL_MIN_MS = 250;
export const POLL_MAX_MS = 30_000;
/** ext-tasks' own default when a server gives no hint. */
export const POLL_DEFAULT_MS = 1_000;
export const DEFAULT_MAX_WAIT_MS = 60 * 60_000;
export const DEFAULT_MAX_LIVE = 10;
/** A task-backed question sent to us lives this long when the server asks for no TTL, and at most this long when it asks for more. */
export const RECEIVED_TTL_DEFAULT_MS = 60 * 60_000;
export const RECEIVED_TTL_MAX_MS = 24 * 60 * 60_000;
/** Task-backed questions one server may leave with us at once (ext-tasks' receiver refuses more). */
export const RECEIVED_MAX_TASKS = 20;
export const STATUS_MESSAGE_MAX = 300;

export interface TaskBounds {
  readonly optionalAsTask: boolean;
  readonly maxWaitMs: number;
  readonly maxLive: number;
}

export function taskBounds(settings: TaskSettings | undefined): TaskBounds {
  const positive = (value: number | undefined, fallback: number): number => (value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback);
  return {
    optionalAsTask: settings?.optionalAsTask === true,
    maxWaitMs: positive(settings?.maxWaitMs, DEFAULT_MAX_WAIT_MS),
    maxLive: Math.floor(positive(settings?.maxLive, DEFAULT_MAX_LIVE)),
  };
}

/** The server's poll hint within 250 ms to 30 s; no (or no usable) hint: ext-tasks' default. */
export function clampPollInterval(hint: unknown): number {
  if (typeof hint !== 'number' || !Number.isFinite(hint)) return POLL_DEFAULT_MS;
  return Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, Math.round(hint)));
}

/** The TTL we give a task-backed question the server sends us: what it asked for, within our bounds. */
export function receivedTtl(requested: unknown): number {
  if (typeof requested !== 'number' || !Number.isFinite(requested) || requested < 0) return RECEIVED_TTL_DEFAULT_MS;
  return Math.min(RECEIVED_TTL_MAX_MS, Math.round(requested));
}

/** A status message as text: no control or invisible characters, one line, at most 300 characters. */
export function statusText(message: unknown): string | undefined {
  if (typeof message !== 'string') return undefined;
  const line = terminalSafe(message).replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > STATUS_MESSAGE_MAX ? `${line.slice(0, STATUS_MESSAGE_MAX - 1)}…` : line;
}

/**
 * Rewrites the poll hints of a task (or of the tasks a result carries: `task`, `tasks[]`)
 * to the clamped value, so ext-tasks' driver polls within our bounds whatever the server
 * suggests. Returns a new object; anything that is not a task passes as it came.
 */
export function clampTaskHints(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  let out = record;
  const set = (key: string, next: unknown): void => {
    if (out === record) out = { ...record };
    out[key] = next;
  };
  if (typeof record.taskId === 'string') {
    if (record.pollInterval !== undefined) set('pollInterval', clampPollInterval(record.pollInterval));
    if (record.pollIntervalMs !== undefined) set('pollIntervalMs', clampPollInterval(record.pollIntervalMs));
  }
  if (typeof record.task === 'object' && record.task !== null) set('task', clampTaskHints(record.task));
  if (Array.isArray(record.tasks)) set('tasks', record.tasks.map(clampTaskHints));
  return out;
}
