/**
 * Where 2026-07-28 tasks of ours are kept across a reload of the window: the workspace's
 * state (VS Code's `workspaceState`), one list under one key. A record holds only what
 * finds the task again and names it (the server's name, the tool, when it started, and
 * ext-tasks' reference: a digest of where the server is reached and the task's id), never
 * arguments, answers or results. What is read back is checked field by field (a record
 * from another version, or a damaged one, is dropped, never trusted), and the list is
 * bounded, the oldest going first. Without `vscode`: the memory is anything with a Memento's
 * `get` and `update`.
 */
import type { TaskRecord, TaskReferences } from '../../mcp/ports';

/** The workspace's memory (VS Code's `workspaceState` has this shape). */
export interface TaskMemory {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const TASK_REFERENCES_KEY = 'elicitationHost.taskReferences.v1';
/** More than servers' bounds of live tasks allow together in any likely workspace. */
export const MAX_KEPT_TASKS = 100;
const MAX_TEXT = 1000;

export class WorkspaceTaskReferences implements TaskReferences {
  private records: TaskRecord[];

  constructor(
    private readonly memory: TaskMemory,
    private readonly onWriteFailed: (error: unknown) => void = () => undefined,
  ) {
    const stored = memory.get<unknown>(TASK_REFERENCES_KEY, []);
    this.records = Array.isArray(stored) ? stored.map(readRecord).filter((r): r is TaskRecord => r !== undefined) : [];
  }

  load(server: string): readonly TaskRecord[] {
    return this.records.filter((r) => r.server === server);
  }

  /** The server has tasks kept for it: it starts with the window, so they are followed again. */
  has(server: string): boolean {
    return this.records.some((r) => r.server === server);
  }

  save(record: TaskRecord): void {
    const kept = readRecord(record);
    if (!kept) return;
    const others = this.records.filter((r) => !same(r, kept.server, kept.reference.taskId));
    this.records = [...others, kept].slice(-MAX_KEPT_TASKS);
    this.write();
  }

  forget(server: string, taskId: string): void {
    const before = this.records.length;
    this.records = this.records.filter((r) => !same(r, server, taskId));
    if (this.records.length !== before) this.write();
  }

  private write(): void {
    Promise.resolve(this.memory.update(TASK_REFERENCES_KEY, this.records.length > 0 ? this.records : undefined)).catch(this.onWriteFailed);
  }
}

function same(record: TaskRecord, server: string, taskId: string): boolean {
  return record.server === server && record.reference.taskId === taskId;
}

function text(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;
}

/** A record as we write it, built from what is there (nothing else copied), or undefined. */
function readRecord(value: unknown): TaskRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { server, tool, startedAt, reference } = value as Record<string, unknown>;
  if (!text(server) || !text(tool) || typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  if (typeof reference !== 'object' || reference === null) return undefined;
  const { endpointId, generation, taskId, originalOperation } = reference as Record<string, unknown>;
  if (!text(endpointId) || !text(taskId) || generation !== 'v2' || originalOperation !== 'tools/call') return undefined;
  return { server, tool, startedAt, reference: { endpointId, generation, taskId, originalOperation } };
}
