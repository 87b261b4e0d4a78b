/**
 * MCP Tasks (2025-11-25) against the reference "everything" server, run from the pinned
 * package over stdio: its task tool, whose question comes on the task; its two tools that
 * send us task-backed questions; cancelling; questions withdrawn with their task.
 */
import { strict as assert } from 'node:assert';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { findRequest } from '../../src/elicitation/store';
import type { TaskInfo } from '../../src/mcp/ports';
import { everythingDefinition, waitForTools } from '../support/everything';
import { accept, decline, ScriptedPrompter, type Step, waitForAbort } from '../support/scripted-prompter';
import { bundledFixture } from '../support/gateway-harness';
import { toolJson, withHost } from '../support/servers';
import { waitUntil } from '../support/wait';

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** A person who answers only once the test says so (no sleeping: the test waits for an event first). */
function answerWhenTold(step: Step): { step: Step; go: () => void } {
  let go!: () => void;
  const told = new Promise<void>((resolve) => (go = resolve));
  return { step: async (request, options) => (await told, step(request, options)), go };
}

describe('MCP Tasks with the reference server (2025-11-25)', function () {
  this.timeout(60_000);

  it('lists the task tool as task-required and the async elicitation tool (we take task-backed questions)', async () => {
    await withHost(new ScriptedPrompter(), async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['simulate-research-query', 'trigger-elicitation-request-async']);
      assert.equal(c.tools.find((t) => t.name === 'simulate-research-query')?.taskSupport, 'required');
    });
  });

  it('simulate-research-query, ambiguous: its clarification is asked as a background task\'s question and the report names the answer', async () => {
    const prompter = new ScriptedPrompter([accept({ interpretation: 'snake' })]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['simulate-research-query']);
      const seen: TaskInfo[] = [];
      const result = await c.callTool('simulate-research-query', { topic: 'python', ambiguous: true }, { onTask: (t) => seen.push(t) });
      assert.match(text(result), /Research Report: python \(snake\)/);
      assert.match(text(result), /\*\*Clarification\*\*: snake/);
      assert.equal(prompter.asked.length, 1);
      assert.deepEqual(prompter.asked[0].request.source, { server: 'everything', tool: 'Simulate Research Query', background: true });
      const statuses = seen.map((t) => t.status);
      assert.ok(statuses.includes('input_required'), `statuses: ${statuses.join(', ')}`);
      assert.equal(statuses.at(-1), 'completed');
      assert.equal(seen[0].generation, '2025-11-25');
      assert.equal(seen[0].pollIntervalMs, 1000);
      assert.ok(seen.some((t) => t.statusMessage === 'Gathering sources...'));
      assert.equal(c.tasks.list().length, 0, 'the task left the live list when it ended');
    });
  });

  it('simulate-research-query, not ambiguous: runs as a task without a question', async () => {
    const prompter = new ScriptedPrompter();
    await withHost(prompter, async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['simulate-research-query']);
      const result = await c.callTool('simulate-research-query', { topic: 'tides', ambiguous: false });
      assert.match(text(result), /Research Report: tides\n/);
      assert.equal(prompter.asked.length, 0);
    });
  });

  it('a declined clarification goes back as decline, not as a cancelled task', async () => {
    await withHost(new ScriptedPrompter([decline]), async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['simulate-research-query']);
      const result = await c.callTool('simulate-research-query', { topic: 'python', ambiguous: true });
      assert.match(text(result), /User declined - using default interpretation/);
    });
  });

  it('cancelling a running task (its Cancel in the live list) ends the call, and its open question is withdrawn saying why', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['simulate-research-query']);
      const call = c.callTool('simulate-research-query', { topic: 'python', ambiguous: true });
      const failed = assert.rejects(call, /cancelled/);
      await waitUntil('the clarification to be asked', () => prompter.asked.length === 1);
      const [task] = c.tasks.list();
      assert.equal(task.tool, 'Simulate Research Query');
      assert.equal(task.status, 'input_required');
      await task.cancel();
      await failed;
      const request = findRequest(host.store.state, prompter.asked[0].request.id);
      assert.equal(request?.status, 'abandoned');
      assert.match(String(request?.reason), /the task was cancelled/);
      assert.equal(c.tasks.list().length, 0);
    });
  });

  it('the caller cancelling the call cancels its task upstream', async () => {
    await withHost(new ScriptedPrompter(), async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['simulate-research-query']);
      const abort = new AbortController();
      const call = c.callTool('simulate-research-query', { topic: 'tides' }, { signal: abort.signal });
      await waitUntil('the task to be listed', () => c.tasks.list().length === 1);
      abort.abort(new Error('You cancelled the call'));
      await assert.rejects(call, /You cancelled the call/);
      assert.ok(host.log.lines.every((l) => !l.includes('tasks/cancel for')), `tasks/cancel was accepted: ${host.log.lines.join('\n')}`);
    });
  });

  it('trigger-elicitation-request-async: the task-backed question is answered in our form, and the server reads the answer', async () => {
    const prompter = new ScriptedPrompter([accept({ name: 'Ada', favoriteColor: 'Green', agreeToTerms: true })]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['trigger-elicitation-request-async']);
      const result = await c.callTool('trigger-elicitation-request-async', {});
      assert.match(text(result), /\[COMPLETED\] User provided the requested information!/);
      assert.match(text(result), /- Name: Ada\n- Favorite Color: Green\n- Agreed to terms: true/);
      assert.deepEqual(prompter.asked[0].request.source, { server: 'everything', tool: 'Trigger Async Elicitation Request Tool', background: true });
    });
  });

  it('trigger-elicitation-request-async declined: the server reads a decline', async () => {
    await withHost(new ScriptedPrompter([decline]), async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['trigger-elicitation-request-async']);
      assert.match(text(await c.callTool('trigger-elicitation-request-async', {})), /\[DECLINED\]/);
    });
  });

  it('a task-backed question answered later, after the server has polled its task several times', async () => {
    const later = answerWhenTold(accept({ name: 'Grace' }));
    const prompter = new ScriptedPrompter([later.step]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(everythingDefinition());
      await waitForTools(c, ['trigger-elicitation-request-async']);
      const call = c.callTool('trigger-elicitation-request-async', {});
      const polls = (): number => host.log.lines.filter((l) => l.includes('served tasks/get for the task-backed question')).length;
      await waitUntil('the server to poll the question\'s task three times', () => polls() >= 3);
      assert.ok(host.log.lines.some((l) => /served tasks\/get .*: input_required/.test(l)));
      later.go();
      const result = text(await call);
      assert.match(result, /- Name: Grace/);
      assert.match(result, /Poll 1: input_required/);
    });
  });

  it('a task-backed question whose task outlives its time to live is withdrawn, saying so; the server finds the task gone', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(bundledFixture('brief', 'task-questions.js', ['--ttl', '400']));
      const result = toolJson(await c.callTool('ask_briefly', {}));
      assert.equal(result.ttl, 400);
      assert.deepEqual((result.seen as string[]).slice(0, 1), ['input_required']);
      assert.match(String((result.seen as string[]).at(-1)), /^gone: .*(Unknown or expired task)/);
      const request = findRequest(host.store.state, prompter.asked[0].request.id);
      assert.equal(request?.status, 'abandoned');
      assert.equal(request?.reason, "the task's time to live ran out (400 ms) before it was answered");
      assert.equal(prompter.asked[0].request.source.background, true);
    });
  });
});
