/** What a server controls in MCP Tasks is bounded: poll hints, time to live, status text; and how a background task's question is headed. */
import { strict as assert } from 'node:assert';
import type { Tool } from '@modelcontextprotocol/client';
import { sourceLabel } from '../../src/elicitation/request';
import { asPlainTool } from '../../src/gateway/task-tools';
import { TaskList } from '../../src/mcp/connection/tasks/list';
import { clampPollInterval, clampTaskHints, receivedTtl, statusText, taskBounds } from '../../src/mcp/connection/tasks/bounds';

describe('MCP Tasks: bounds on what a server controls', () => {
  it('poll hints are clamped to 250 ms .. 30 s; none (or nonsense) is 1 s', () => {
    assert.equal(clampPollInterval(0), 250);
    assert.equal(clampPollInterval(50), 250);
    assert.equal(clampPollInterval(1000), 1000);
    assert.equal(clampPollInterval(3_600_000), 30_000);
    assert.equal(clampPollInterval(undefined), 1000);
    assert.equal(clampPollInterval('5' as unknown), 1000);
    assert.equal(clampPollInterval(Number.NaN), 1000);
  });

  it('rewrites the poll hints of a task, of a CreateTaskResult and of a task list, leaving anything else as it came', () => {
    assert.deepEqual(clampTaskHints({ taskId: 't', pollIntervalMs: 5 }), { taskId: 't', pollIntervalMs: 250 });
    assert.deepEqual(clampTaskHints({ task: { taskId: 't', pollInterval: 1e9 } }), { task: { taskId: 't', pollInterval: 30_000 } });
    assert.deepEqual(clampTaskHints({ tasks: [{ taskId: 'a', pollInterval: 1 }, { taskId: 'b' }] }), { tasks: [{ taskId: 'a', pollInterval: 250 }, { taskId: 'b' }] });
    const plain = { content: [], pollInterval: 1 };
    assert.equal(clampTaskHints(plain), plain);
  });

  it('a task-backed question lives as long as asked, at most a day; no (or a bad) TTL is an hour', () => {
    assert.equal(receivedTtl(600_000), 600_000);
    assert.equal(receivedTtl(10 * 24 * 3_600_000), 24 * 3_600_000);
    assert.equal(receivedTtl(undefined), 3_600_000);
    assert.equal(receivedTtl(-1), 3_600_000);
  });

  it('status text is one line of plain text, at most 300 characters', () => {
    assert.equal(statusText('\u001b[31mred\u001b[0m\nnext\u202eline'), '[31mred[0m nextline');
    assert.equal(statusText('x'.repeat(500))?.length, 300);
    assert.equal(statusText('   '), undefined);
    assert.equal(statusText(42), undefined);
  });

  it('settings: task-optional tools are plain calls unless asked; the wait and the live tasks have defaults', () => {
    assert.deepEqual(taskBounds(undefined), { optionalAsTask: false, maxWaitMs: 3_600_000, maxLive: 10 });
    assert.deepEqual(taskBounds({ optionalAsTask: true, maxWaitMs: -5, maxLive: 2.7 }), { optionalAsTask: true, maxWaitMs: 3_600_000, maxLive: 2 });
  });

  it('the live list keeps the status text bounded and the poll interval clamped', () => {
    const list = new TaskList();
    let changes = 0;
    list.onDidChange.add(() => changes++);
    list.add({ server: 's', taskId: 't', tool: 'Tool', generation: '2026-07-28', status: 'working', startedAt: 0, ttlMs: null, pollIntervalMs: 1000, cancel: async () => undefined });
    const updated = list.update('t', { status: 'input_required', statusMessage: 'a\u0007b', ttl: 60_000, pollInterval: 1 });
    assert.equal(updated?.statusMessage, 'ab');
    assert.equal(updated?.pollIntervalMs, 250);
    assert.equal(updated?.ttlMs, 60_000);
    list.remove('t');
    assert.equal(changes, 3);
    assert.equal(list.update('t', { status: 'completed', ttl: null }), undefined);
  });
});

describe('MCP Tasks: a background task\'s question and a task tool for agents', () => {
  it('is headed "tool (background task)"', () => {
    assert.equal(sourceLabel({ server: 'everything', tool: 'Simulate Research Query', background: true }), 'everything · Simulate Research Query (background task)');
    assert.equal(sourceLabel({ server: 'everything', background: true, agent: 'Claude Code' }), 'everything (background task), for Claude Code');
    assert.equal(sourceLabel({ server: 'everything', tool: 'echo' }), 'everything · echo');
  });

  it('the gateway serves a task tool without its taskSupport, keeping the rest', () => {
    const tool = { name: 'research', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } } as unknown as Tool;
    assert.deepEqual(asPlainTool(tool), { name: 'research', inputSchema: { type: 'object' } });
    const other = { name: 'x', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional', vendor: 1 } } as unknown as Tool;
    assert.deepEqual(asPlainTool(other), { name: 'x', inputSchema: { type: 'object' }, execution: { vendor: 1 } });
    const plain = { name: 'echo', inputSchema: { type: 'object' } } as Tool;
    assert.equal(asPlainTool(plain), plain);
  });
});
