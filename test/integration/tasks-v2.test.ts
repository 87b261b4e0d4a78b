/**
 * MCP 2026-07-28 Tasks (the `io.modelcontextprotocol/tasks` extension) against a fixture
 * server: a task that asks twice through `tasks/update`, a task kept across a "reload"
 * (its reference serialized, a new connection picks it up and asks its pending question
 * again), cancelling, and the bounds on what the server sends.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputStore } from '../../src/elicitation/store';
import { ServerConnection } from '../../src/mcp/connection/connection';
import { createBroker } from '../../src/mcp/create-broker';
import type { SettledTask, TaskInfo, TaskRecord, TaskReferences } from '../../src/mcp/ports';
import { accept, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { DEFAULT_SETTINGS, type HttpFixture, MemoryLog, ScriptedUrlFlow, startHttpFixture, toolJson } from '../support/servers';
import { waitUntil } from '../support/wait';

/** What the UI keeps in workspace state, kept in memory. */
class MemoryReferences implements TaskReferences {
  readonly records = new Map<string, TaskRecord>();
  load(server: string): readonly TaskRecord[] {
    return [...this.records.values()].filter((r) => r.server === server);
  }
  save(record: TaskRecord): void {
    this.records.set(record.reference.taskId, JSON.parse(JSON.stringify(record)) as TaskRecord);
  }
  forget(_server: string, taskId: string): void {
    this.records.delete(taskId);
  }
}

describe('MCP Tasks, 2026-07-28 extension', function () {
  this.timeout(60_000);
  let fixture: HttpFixture;
  let recordFile: string;
  const connections: ServerConnection[] = [];

  before(async () => {
    recordFile = join(mkdtempSync(join(tmpdir(), 'tasks-v2-')), 'record.jsonl');
    fixture = await startHttpFixture([], { FIXTURE_RECORD: recordFile }, 'tasks-v2.js');
  });
  after(async () => {
    await fixture?.stop();
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.stop()));
  });

  const records = (): Array<Record<string, unknown>> =>
    readFileSync(recordFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

  function connection(prompter: ScriptedPrompter, references?: TaskReferences, store = new InputStore(), log = new MemoryLog()): ServerConnection {
    const created = new ServerConnection(fixture.definition('trips'), {
      broker: createBroker({ store, prompter }),
      log,
      settings: () => DEFAULT_SETTINGS,
      roots: () => [],
      clientInfo: { name: 'tasks-tests', version: '0' },
      urlFlow: new ScriptedUrlFlow(),
      ...(references && { taskReferences: references }),
    });
    connections.push(created);
    return created;
  }

  it('a task that asks twice: each question through the broker, each answer by tasks/update, then its result', async () => {
    const prompter = new ScriptedPrompter([accept({ destination: 'Lisbon', nights: 3 }), accept()]);
    const c = connection(prompter);
    await c.start();
    assert.equal(c.era, 'modern');
    const seen: TaskInfo[] = [];
    const result = await c.callTool('plan_trip', {}, { onTask: (t) => seen.push(t) });
    assert.deepEqual(toolJson(result), { destination: 'Lisbon', nights: 3, booked: true, answer: 'accept' });
    assert.deepEqual(prompter.asked.map((a) => a.request.message), ['Where to, and for how long?', 'Book 3 nights in Lisbon?']);
    assert.deepEqual(prompter.asked[0].request.source, { server: 'trips', tool: 'Plan a Trip', background: true });
    const taskId = seen[0].taskId;
    const updates = records().filter((r) => r.update === taskId);
    assert.deepEqual(updates.map((u) => Object.keys(u.inputResponses as object)), [['trip'], ['sure']]);
    assert.equal(seen[0].generation, '2026-07-28');
    assert.ok(seen.every((t) => t.pollIntervalMs === 250), 'the 50 ms hint is clamped to 250 ms');
    const waiting = seen.find((t) => t.statusMessage?.startsWith('Waiting for'));
    assert.equal(waiting?.statusMessage, 'Waiting for [31mthe trip[0m', 'the escape character is gone from the status text');
  });

  it('a task kept across a reload: a new connection resumes it from its serialized reference and asks its pending question again', async () => {
    const references = new MemoryReferences();
    const first = new ScriptedPrompter([waitForAbort]);
    const before = connection(first, references);
    await before.start();
    const call = before.callTool('plan_trip', {});
    const detached = assert.rejects(call, /trips was stopped/);
    await waitUntil('the first question', () => first.asked.length === 1);
    const [kept] = references.load('trips');
    assert.equal(kept.reference.generation, 'v2');
    assert.equal(kept.tool, 'Plan a Trip');
    await before.stop();
    await detached;
    assert.equal(references.load('trips').length, 1, 'stopping let go of the task without forgetting it');
    assert.ok(!records().some((r) => r.cancel === kept.reference.taskId), 'stopping did not cancel the task');

    const second = new ScriptedPrompter([accept({ destination: 'Oslo', nights: 2 }), accept()]);
    const after = connection(second, references);
    const settled: SettledTask[] = [];
    after.tasks.onSettled.add((s) => settled.push(s));
    await after.start();
    await waitUntil('the resumed task to settle', () => settled.length === 1);
    assert.equal(second.asked[0].request.message, 'Where to, and for how long?');
    assert.deepEqual(second.asked[0].request.source, { server: 'trips', tool: 'Plan a Trip', background: true });
    assert.equal(settled[0].task.taskId, kept.reference.taskId);
    assert.equal(settled[0].task.resumed, true);
    assert.deepEqual(toolJson(settled[0].result as never), { destination: 'Oslo', nights: 2, booked: true, answer: 'accept' });
    assert.equal(references.load('trips').length, 0, 'a finished task is forgotten');
  });

  it('Cancel on a running task sends tasks/cancel and ends the call', async () => {
    const c = connection(new ScriptedPrompter());
    await c.start();
    const call = c.callTool('forever', {});
    const failed = assert.rejects(call, /cancelled/);
    await waitUntil('the task to be listed', () => c.tasks.list().length === 1);
    const [task] = c.tasks.list();
    await task.cancel();
    await failed;
    assert.ok(records().some((r) => r.cancel === task.taskId));
  });

  it('a task whose cancel the server refuses is let go of once its call has ended: it is polled no more', async () => {
    const log = new MemoryLog();
    const c = connection(new ScriptedPrompter(), undefined, undefined, log);
    await c.start();
    const person = new AbortController();
    const call = c.callTool('stubborn', {}, { signal: person.signal });
    const failed = assert.rejects(call, /the person cancelled/);
    await waitUntil('the task to be listed', () => c.tasks.list().length === 1);
    const [{ taskId }] = c.tasks.list();
    await waitUntil('the task polled', () => records().some((r) => r.get === taskId));
    person.abort(new Error('the person cancelled'));
    await failed;
    const refusal = await waitUntil('the refused cancel said', () => log.lines.find((l) => l.includes(`tasks/cancel for ${taskId} failed`)));
    assert.ok(records().some((r) => r.cancel === taskId && r.refused === true), 'the server was asked, and refused');
    assert.equal(c.tasks.list().length, 0, 'the task left the Servers view');

    // The clock: a second task on the same connection, polled at the same interval. From its
    // first poll on, the first task, still followed, would be polled once in each interval too.
    const stop = new AbortController();
    const clock = c.callTool('forever', {}, { signal: stop.signal });
    const stopped = assert.rejects(clock, /enough/);
    await waitUntil('the second task to be listed', () => c.tasks.list().length === 1);
    const [{ taskId: clockId }] = c.tasks.list();
    const since = (): Array<Record<string, unknown>> => {
      const all = records();
      return all.slice(all.findIndex((r) => r.get === clockId));
    };
    await waitUntil('four polls of the second task', () => since().filter((r) => r.get === clockId).length >= 4, 20_000);
    assert.deepEqual(since().filter((r) => r.get === taskId), [], 'the task let go of was not polled in four poll intervals');
    assert.match(refusal, /This task cannot be cancelled; the task is no longer followed/);
    stop.abort(new Error('enough'));
    await stopped;
  });

  it('a server past its bound of live tasks gets no more', async () => {
    const c = new ServerConnection(fixture.definition('trips'), {
      broker: createBroker({ store: new InputStore(), prompter: new ScriptedPrompter() }),
      log: new MemoryLog(),
      settings: () => ({ ...DEFAULT_SETTINGS, tasks: { maxLive: 1 } }),
      roots: () => [],
      clientInfo: { name: 'tasks-tests', version: '0' },
      urlFlow: new ScriptedUrlFlow(),
    });
    connections.push(c);
    await c.start();
    const abort = new AbortController();
    const running = c.callTool('forever', {}, { signal: abort.signal });
    await waitUntil('the first task', () => c.tasks.list().length === 1);
    await assert.rejects(c.callTool('forever', {}), /already runs 1 tasks of ours \(at most 1\)/);
    abort.abort(new Error('done'));
    await assert.rejects(running, /done/);
  });
});
