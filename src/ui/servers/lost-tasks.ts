/**
 * What a reload costs an MCP 2025-11-25 task, said where the person will see it: such a
 * task cannot be followed again (its questions come only on the `tasks/result` stream of
 * the session that started it, and servers keep tasks per session), so its result is
 * lost. A closing window cannot say so (VS Code shows nothing while it closes), so the
 * running 2025-era tasks are noted in the workspace's state as they come and go, and the
 * next window names those it lost, once. A 2026-07-28 task is kept and followed again
 * (task-references.ts) and is not noted. Without `vscode`.
 */
import type { Listeners } from '../../base/listeners';
import type { TaskInfo } from '../../mcp/ports';
import type { TaskMemory } from './task-references';

export const LEGACY_TASKS_KEY = 'elicitationHost.runningLegacyTasks.v1';
const MAX_NOTED = 20;
const MAX_TEXT = 300;

interface Noted {
  readonly server: string;
  readonly tool: string;
}

export interface TaskSource {
  all(): readonly TaskInfo[];
  readonly onDidChange: Listeners<void>;
}

export class LegacyTaskNotes {
  private noted = '';
  private readonly stop: () => void;

  constructor(
    private readonly memory: TaskMemory,
    private readonly tasks: TaskSource,
  ) {
    this.stop = tasks.onDidChange.add(() => this.note());
  }

  private note(): void {
    const running = this.tasks.all().filter((t) => t.generation === '2025-11-25');
    const key = running.map((t) => `${t.server}\u0000${t.taskId}`).join('\u0001');
    if (key === this.noted) return;
    this.noted = key;
    const list: Noted[] = running.slice(0, MAX_NOTED).map((t) => ({ server: t.server, tool: t.tool }));
    void Promise.resolve(this.memory.update(LEGACY_TASKS_KEY, list.length > 0 ? list : undefined)).catch(() => undefined);
  }

  /** Stops noting: the window is closing, and its servers stopping must not erase the note. */
  dispose(): void {
    this.stop();
  }
}

/** What the last window lost, in words (and forgotten), or undefined when it lost nothing. */
export function lostTasksNotice(memory: TaskMemory): string | undefined {
  const stored = memory.get<unknown>(LEGACY_TASKS_KEY, undefined);
  if (stored === undefined) return undefined;
  void Promise.resolve(memory.update(LEGACY_TASKS_KEY, undefined)).catch(() => undefined);
  const lost = (Array.isArray(stored) ? stored : []).filter(isNoted).slice(0, MAX_NOTED);
  if (lost.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const { server, tool } of lost) counts.set(`${tool} on ${server}`, (counts.get(`${tool} on ${server}`) ?? 0) + 1);
  const named = [...counts].map(([what, n]) => (n > 1 ? `${what} (${n} times)` : what)).join(', ');
  const many = lost.length > 1;
  return (
    `${lost.length} task${many ? 's were' : ' was'} running when this window last closed and could not be kept: ${named}. ` +
    `MCP 2025-11-25 tasks live in the session that started them, which a reload ends, so ${many ? 'their results are' : 'its result is'} lost; run ${many ? 'them' : 'it'} again if you need ${many ? 'them' : 'it'}.`
  );
}

function isNoted(value: unknown): value is Noted {
  if (typeof value !== 'object' || value === null) return false;
  const { server, tool } = value as Record<string, unknown>;
  return typeof server === 'string' && typeof tool === 'string' && server.length <= MAX_TEXT && tool.length <= MAX_TEXT;
}
