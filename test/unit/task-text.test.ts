/**
 * How a running task reads in the Servers view: the elapsed time, its row, the group's
 * summary, and a tooltip that says what becomes of it on a reload (the 2025-era loss).
 */
import { strict as assert } from 'node:assert';
import type { TaskInfo } from '../../src/mcp/ports';
import { elapsedText, taskDescription, taskLabel, tasksSummary, taskTooltip } from '../../src/ui/views/task-text';

const START = Date.UTC(2026, 9, 1, 12, 0, 0);

function task(fields: Partial<TaskInfo> = {}): TaskInfo {
  return {
    server: 'trips',
    taskId: 'task-1',
    tool: 'Plan a Trip',
    generation: '2026-07-28',
    status: 'working',
    startedAt: START,
    ttlMs: 600_000,
    pollIntervalMs: 250,
    cancel: () => Promise.resolve(),
    ...fields,
  };
}

describe('a running task as the Servers view shows it', () => {
  it('elapsed time: seconds, then minutes and seconds, then hours and minutes; never negative', () => {
    assert.equal(elapsedText(0), '0s');
    assert.equal(elapsedText(59_400), '59s');
    assert.equal(elapsedText(60_000), '1m 00s');
    assert.equal(elapsedText(133_000), '2m 13s');
    assert.equal(elapsedText(59 * 60_000 + 59_000), '59m 59s');
    assert.equal(elapsedText(3_600_000 + 4 * 60_000 + 30_000), '1h 04m');
    assert.equal(elapsedText(26 * 3_600_000), '26h 00m');
    assert.equal(elapsedText(-5000), '0s', 'a clock that moved back reads as just started');
  });

  it('its row: tool, status in words, elapsed time; the status message beside it', () => {
    assert.equal(taskLabel(task(), START + 133_000), 'Plan a Trip · working · 2m 13s');
    assert.equal(taskLabel(task({ status: 'input_required' }), START + 5000), 'Plan a Trip · needs your answer · 5s');
    assert.equal(taskDescription(task({ statusMessage: 'Gathering sources...' })), 'Gathering sources...');
    assert.equal(taskDescription(task()), '');
  });

  it("the group's summary counts the tasks and those waiting for an answer", () => {
    assert.equal(tasksSummary([task()]), '1 running');
    assert.equal(tasksSummary([task(), task({ taskId: 'b', status: 'input_required' })]), '2 running, 1 needs your answer');
  });

  it('the tooltip says who started it, how long it has run, and what a reload does to it, by generation', () => {
    const kept = taskTooltip(task({ caller: { kind: 'person' }, statusMessage: 'Waiting for the trip' }), START + 61_000);
    assert.match(kept, /^Plan a Trip on trips: an MCP task \(2026-07-28\), working/);
    assert.match(kept, /Waiting for the trip/);
    assert.match(kept, /Running for 1m 01s/);
    assert.match(kept, /Started by you \(Run Tool\)/);
    assert.match(kept, /Kept across a reload of the window/);
    assert.match(kept, /Cancel asks trips to stop it/);

    const lost = taskTooltip(task({ generation: '2025-11-25', caller: { kind: 'agent', name: 'Claude Code' }, ttlMs: null }), START);
    assert.match(lost, /Started by Claude Code \(through the gateway\)/);
    assert.match(lost, /not kept across a reload/i);
    assert.match(lost, /its result is lost/);

    const resumed = taskTooltip(task({ resumed: true }), START);
    assert.match(resumed, /Picked up again after a reload: its result opens when it finishes/);
  });
});
