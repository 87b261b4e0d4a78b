/**
 * What a reload costs a 2025-11-25 task, said in the next window: the running 2025-era
 * tasks are noted as they come and go, and the next window names those it lost, once.
 */
import { strict as assert } from 'node:assert';
import { Listeners } from '../../src/base/listeners';
import type { TaskInfo } from '../../src/mcp/ports';
import { LEGACY_TASKS_KEY, LegacyTaskNotes, lostTasksNotice } from '../../src/ui/servers/lost-tasks';
import { MementoFake } from '../support/memento';

class Tasks {
  readonly onDidChange = new Listeners<void>();
  live: TaskInfo[] = [];
  all(): readonly TaskInfo[] {
    return this.live;
  }
  set(...tasks: TaskInfo[]): void {
    this.live = tasks;
    this.onDidChange.fire();
  }
}

function task(taskId: string, generation: TaskInfo['generation'], status: TaskInfo['status'] = 'working'): TaskInfo {
  return { server: 'everything', taskId, tool: 'Simulate Research Query', generation, status, startedAt: 1, ttlMs: null, pollIntervalMs: 1000, cancel: () => Promise.resolve() };
}

describe('2025-era tasks lost to a reload are named in the next window', () => {
  it('notes the running 2025-era tasks only (a 2026 task is kept and followed again), and only when that set changes', () => {
    const memory = new MementoFake();
    const tasks = new Tasks();
    const notes = new LegacyTaskNotes(memory, tasks);
    tasks.set(task('a', '2025-11-25'), task('b', '2026-07-28'));
    assert.deepEqual(JSON.parse(memory.values.get(LEGACY_TASKS_KEY)!), [{ server: 'everything', tool: 'Simulate Research Query' }]);
    const writes = memory.writes;
    tasks.set(task('a', '2025-11-25', 'input_required'), task('b', '2026-07-28'));
    assert.equal(memory.writes, writes, 'a status change is not a new set');
    tasks.set(task('b', '2026-07-28'));
    assert.equal(memory.values.has(LEGACY_TASKS_KEY), false, 'ended: nothing to say');
    notes.dispose();
  });

  it('the window closing stops the notes first: its stopping servers do not erase what the next window says', () => {
    const memory = new MementoFake();
    const tasks = new Tasks();
    const notes = new LegacyTaskNotes(memory, tasks);
    tasks.set(task('a', '2025-11-25'));
    notes.dispose();
    tasks.set();
    assert.ok(memory.values.has(LEGACY_TASKS_KEY));
  });

  it('the next window names them once, then forgets them; nothing noted, nothing said', () => {
    const memory = new MementoFake();
    const tasks = new Tasks();
    new LegacyTaskNotes(memory, tasks);
    tasks.set(task('a', '2025-11-25'), task('c', '2025-11-25'));
    const notice = lostTasksNotice(memory);
    assert.match(notice!, /^2 tasks were running when this window last closed and could not be kept: Simulate Research Query on everything \(2 times\)\./);
    assert.match(notice!, /MCP 2025-11-25 tasks live in the session that started them/);
    assert.match(notice!, /results are lost/);
    assert.equal(lostTasksNotice(memory), undefined);
    assert.equal(lostTasksNotice(new MementoFake()), undefined);
  });

  it('what is read back is checked, and the list is bounded', () => {
    const memory = new MementoFake();
    memory.values.set(LEGACY_TASKS_KEY, JSON.stringify([{ server: 'x', tool: 'y' }, { server: 3 }, 'junk', ...Array.from({ length: 50 }, () => ({ server: 'x', tool: 'y' }))]));
    assert.match(lostTasksNotice(memory)!, /^20 tasks were running/);
  });
});
