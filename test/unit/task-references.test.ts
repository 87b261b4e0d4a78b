/**
 * The 2026-07-28 tasks kept across a reload, in the workspace's state: what a record holds
 * (nothing but what finds the task again and names it), per server, forgotten when done,
 * bounded, and what is read back checked field by field.
 */
import { strict as assert } from 'node:assert';
import type { TaskRecord } from '../../src/mcp/ports';
import { MAX_KEPT_TASKS, TASK_REFERENCES_KEY, WorkspaceTaskReferences } from '../../src/ui/servers/task-references';
import { MementoFake } from '../support/memento';

function record(server: string, taskId: string, startedAt = 1000): TaskRecord {
  return { server, tool: 'Plan a Trip', startedAt, reference: { endpointId: 'ep-1', generation: 'v2', taskId, originalOperation: 'tools/call' } };
}

describe('2026-07-28 task references kept in the workspace state', () => {
  it('saves a record as plain JSON under one key, loads it per server, and forgets it', () => {
    const memory = new MementoFake();
    const refs = new WorkspaceTaskReferences(memory);
    refs.save(record('trips', 'task-1'));
    refs.save(record('other', 'task-9'));
    assert.deepEqual(JSON.parse(memory.values.get(TASK_REFERENCES_KEY)!), [record('trips', 'task-1'), record('other', 'task-9')]);
    assert.deepEqual(refs.load('trips'), [record('trips', 'task-1')]);
    assert.equal(refs.has('trips'), true);
    refs.forget('trips', 'task-1');
    assert.deepEqual(refs.load('trips'), []);
    assert.equal(refs.has('trips'), false);
    assert.deepEqual(refs.load('other'), [record('other', 'task-9')]);
  });

  it('a second window reads what the first kept (a reload)', () => {
    const memory = new MementoFake();
    new WorkspaceTaskReferences(memory).save(record('trips', 'task-1'));
    assert.deepEqual(new WorkspaceTaskReferences(memory).load('trips'), [record('trips', 'task-1')]);
  });

  it('saving the same task again replaces it; the same id on another server is another task', () => {
    const refs = new WorkspaceTaskReferences(new MementoFake());
    refs.save(record('trips', 'task-1', 1));
    refs.save(record('trips', 'task-1', 2));
    refs.save(record('other', 'task-1', 3));
    assert.deepEqual(refs.load('trips').map((r) => r.startedAt), [2]);
    assert.deepEqual(refs.load('other').map((r) => r.startedAt), [3]);
  });

  it('keeps only the fields of a record, whatever else the object carried', () => {
    const memory = new MementoFake();
    const refs = new WorkspaceTaskReferences(memory);
    refs.save({ ...record('trips', 'task-1'), arguments: { secret: 'x' } } as unknown as TaskRecord);
    assert.doesNotMatch(memory.values.get(TASK_REFERENCES_KEY)!, /secret/);
  });

  it('is bounded: past the bound the oldest records go', () => {
    const refs = new WorkspaceTaskReferences(new MementoFake());
    for (let i = 0; i < MAX_KEPT_TASKS + 5; i++) refs.save(record('trips', `task-${i}`, i));
    const kept = refs.load('trips');
    assert.equal(kept.length, MAX_KEPT_TASKS);
    assert.equal(kept[0].reference.taskId, 'task-5');
  });

  it('what is read back is checked: a damaged or foreign record is dropped, the good ones kept', () => {
    const memory = new MementoFake();
    memory.values.set(
      TASK_REFERENCES_KEY,
      JSON.stringify([
        record('trips', 'good'),
        { server: 'trips', tool: 'x', startedAt: 'yesterday', reference: record('trips', 'bad').reference },
        { ...record('trips', 'v1'), reference: { ...record('trips', 'v1').reference, generation: 'v1' } },
        { ...record('trips', 'long'), reference: { ...record('trips', 'long').reference, taskId: 'x'.repeat(2000) } },
        null,
        'text',
      ]),
    );
    assert.deepEqual(refs(memory).load('trips').map((r) => r.reference.taskId), ['good']);
    memory.values.set(TASK_REFERENCES_KEY, JSON.stringify({ not: 'a list' }));
    assert.deepEqual(refs(memory).load('trips'), []);
  });
});

function refs(memory: MementoFake): WorkspaceTaskReferences {
  return new WorkspaceTaskReferences(memory);
}
