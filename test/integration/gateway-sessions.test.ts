/**
 * The 2025-era sessions of agents that come and go: an agent that opens sessions and never
 * closes them (64 short `claude -p` runs do) pushes out only idle sessions, least recently
 * used first, its own before anyone else's; a call in flight and its open question are never
 * ended to make room, and when nothing can go, the new `initialize` is refused in words. And
 * an agent whose process dies mid-call (its sockets close, it sends no cancel) has its call
 * ended upstream and its question withdrawn, as if it had cancelled.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { History } from '../../src/elicitation/history';
import type { InputStore, StoreAction } from '../../src/elicitation/store';
import { gatewayFixture, gatewaysPerTest, TOKEN } from '../support/gateway-harness';
import { accept, ScriptedPrompter, type Step } from '../support/scripted-prompter';
import { REPO, toolJson } from '../support/servers';
import { waitUntil } from '../support/wait';

const AGENT = join(REPO, 'test/fixtures/agents/calling-agent.ts');

/** Resolves once the store holds `count` open questions. */
function openQuestions(store: InputStore, count: number): Promise<void> {
  const enough = (): boolean => store.state.requests.filter((r) => r.status === 'open').length >= count;
  if (enough()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = store.subscribe(() => {
      if (!enough()) return;
      unsubscribe();
      resolve();
    });
  });
}

/** Resolves with the store's next action of this type; fails after `timeoutMs` saying what did not come. */
function nextAction<T extends StoreAction['type']>(store: InputStore, type: T, timeoutMs = 15_000): Promise<Extract<StoreAction, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no "${type}" in ${timeoutMs} ms: the question is still ${store.state.requests.map((r) => r.status).join(', ') || 'not asked'}`));
    }, timeoutMs);
    const unsubscribe = store.subscribe((_state, action) => {
      if (action.type !== type) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(action as Extract<StoreAction, { type: T }>);
    });
  });
}

/** A person who answers (accepts) when the test says so. */
function answerWhenTold(): { step: Step; answer: () => void } {
  let answer!: () => void;
  const told = new Promise<void>((resolve) => (answer = resolve));
  return {
    answer: () => answer(),
    step: async (request, options) => {
      await told;
      return accept()(request, options);
    },
  };
}

describe('gateway: sessions of agents that come and go (2025 era)', function () {
  this.timeout(60_000);
  const gateways = gatewaysPerTest();

  it("one agent's 64 sessions end neither another agent's call in flight and its question nor a third agent's idle session", async () => {
    const person = answerWhenTold();
    const prompter = new ScriptedPrompter([person.step, accept()]);
    const harness = await gateways.start(prompter, [gatewayFixture('todos')]);
    const busy = await harness.agent('todos', { name: 'Visual Studio Code' });
    const idle = await harness.agent('todos', { name: 'gemini-cli' });
    await idle.listTools();
    const call = busy.callTool({ name: 'clear_completed', arguments: { count: 3 } });
    await openQuestions(harness.host.store, 1);

    // 64 short `claude -p` runs: each initializes, uses its session once, and never closes it.
    const runs: Client[] = [];
    for (let run = 0; run < 64; run++) {
      const agent = await harness.agent('todos', { name: 'claude-code' });
      await agent.listTools();
      runs.push(agent);
    }

    assert.equal(harness.host.store.state.requests[0].status, 'open', 'the busy agent\'s question is still open');
    assert.equal(prompter.asked[0].options.signal.aborted, false);
    person.answer();
    assert.deepEqual(toolJson((await call) as CallToolResult), { action: 'accept', content: {}, removed: 3 });
    // Both other sessions still live.
    assert.equal(toolJson((await busy.callTool({ name: 'clear_completed', arguments: { count: 1 } })) as CallToolResult).removed, 1);
    assert.ok((await idle.listTools()).tools.length > 0);
    // The many-session agent made room with its own oldest sessions.
    await assert.rejects(runs[0].listTools(), /Session not found/);
    assert.ok((await runs[63].listTools()).tools.length > 0);
  });

  it('when every session is busy at the bound, a new initialize is refused in words and no call is ended', async () => {
    const first = answerWhenTold();
    const second = answerWhenTold();
    const prompter = new ScriptedPrompter([first.step, second.step]);
    const harness = await gateways.start(prompter, [gatewayFixture('todos')], { gateway: { sessionLimits: { total: 2, perClient: 2 } } });
    const a = await harness.agent('todos', { name: 'claude-code' });
    const b = await harness.agent('todos', { name: 'Visual Studio Code' });
    const calls = [a.callTool({ name: 'clear_completed', arguments: { count: 1 } }), b.callTool({ name: 'clear_completed', arguments: { count: 2 } })];
    await openQuestions(harness.host.store, 2);

    await assert.rejects(harness.agent('todos', { name: 'cursor' }), /2 sessions.*every one of them busy/i);

    first.answer();
    second.answer();
    assert.deepEqual((await Promise.all(calls)).map((r) => toolJson(r as CallToolResult).removed), [1, 2]);
    // Idle now: the least recently used one makes room.
    const c = await harness.agent('todos', { name: 'cursor' });
    assert.ok((await c.listTools()).tools.length > 0);
  });

  it("an agent at its own bound with every session busy is refused, and another agent is not", async () => {
    const person = answerWhenTold();
    const prompter = new ScriptedPrompter([person.step]);
    const harness = await gateways.start(prompter, [gatewayFixture('todos')], { gateway: { sessionLimits: { total: 8, perClient: 1 } } });
    const a = await harness.agent('todos', { name: 'claude-code' });
    const call = a.callTool({ name: 'clear_completed', arguments: { count: 4 } });
    await openQuestions(harness.host.store, 1);

    await assert.rejects(harness.agent('todos', { name: 'claude-code' }), /claude-code has 1 session.*every one of them busy/i);
    const other = await harness.agent('todos', { name: 'Visual Studio Code' });
    assert.ok((await other.listTools()).tools.length > 0);

    person.answer();
    assert.equal(toolJson((await call) as CallToolResult).removed, 4);
  });
});

describe('gateway: an agent that goes away mid-call', function () {
  this.timeout(60_000);
  const gateways = gatewaysPerTest();

  for (const era of ['legacy', 'auto'] as const) {
    it(`its killed process ends the call upstream and withdraws the question (${era === 'legacy' ? '2025 era' : '2026-07-28 era'})`, async () => {
      const prompter = new ScriptedPrompter([() => new Promise(() => undefined)]); // the person never answers
      const harness = await gateways.start(prompter, [gatewayFixture('todos')]);
      const history = new History();
      history.follow(harness.host.store);
      const asked = nextAction(harness.host.store, 'requested');
      const agent = spawn(process.execPath, ['--import', 'tsx', AGENT, harness.gateway.servers()[0].url, 'clear_completed', '{"count":2}'], {
        cwd: REPO,
        env: { ...process.env, AGENT_TOKEN: TOKEN, AGENT_ERA: era },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      agent.stdout.on('data', (c: Buffer) => (output += c.toString()));
      agent.stderr.on('data', (c: Buffer) => (output += c.toString()));
      agent.once('exit', (code, signal) => (output += `\n(the agent exited: ${signal ?? code})`));
      await asked.catch((error: Error) => assert.fail(`${error.message}; the agent said:\n${output}`));

      const withdrawn = nextAction(harness.host.store, 'abandoned');
      agent.kill('SIGKILL');
      const { reason } = await withdrawn;
      assert.equal(prompter.asked[0].options.signal.aborted, true, 'the prompt closed');
      assert.match(reason, /the call to clear_completed ended/);
      const [entry] = history.entries;
      assert.ok(entry && ['abandoned', 'withdrawn'].includes(entry.outcome), `the History says ${entry?.outcome}`);
      assert.equal(entry.reason, reason);
      await waitUntil('the upstream call to end', () => harness.connections[0].connection.pending.calls === 0);
    });
  }
});
