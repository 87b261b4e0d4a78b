/**
 * The gateway around the call: progress while the person answers, list changes, an
 * upstream server that dies, URL mode, sampling sent to the agent, resources and prompts.
 */
import { strict as assert } from 'node:assert';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { cannedCompletion } from '../support/gateway-harness';
import { accept, ScriptedPrompter, type Step, waitForAbort } from '../support/scripted-prompter';
import { gatewayFixture, gatewaysPerTest } from '../support/gateway-harness';
import { requireFixtures, toolJson } from '../support/servers';
import { waitUntil } from '../support/wait';

const ERAS = ['legacy', 'auto'] as const;

/** A person who answers once `ready` says so. */
function acceptWhen(ready: () => boolean): Step {
  return async (request, options) => {
    await waitUntil('the test to let the person answer', ready, 20_000);
    return accept()(request, options);
  };
}

describe('gateway: around the call', function () {
  this.timeout(40_000);
  const gateways = gatewaysPerTest();
  before(() => requireFixtures());

  for (const era of ERAS) {
    const label = era === 'legacy' ? '2025 era' : '2026-07-28 era';

    it(`progress reaches the agent while the person answers, so a 1 s request timeout that resets on progress holds (${label})`, async () => {
      const notes: Array<{ progress: number; message?: string }> = [];
      const prompter = new ScriptedPrompter([acceptWhen(() => notes.length >= 4)]);
      const harness = await gateways.start(prompter, [gatewayFixture('todos')], { gateway: { heartbeatMs: 150 } });
      const agent = await harness.agent('todos', { era });
      await agent.listTools(); // started: the notes below are the person's, not the server's start
      const result = await agent.callTool(
        { name: 'clear_completed', arguments: { count: 2 } },
        { timeout: 1000, resetTimeoutOnProgress: true, onprogress: (p) => notes.push({ progress: p.progress, ...(p.message && { message: p.message }) }) },
      );
      assert.deepEqual(toolJson(result as CallToolResult), { action: 'accept', content: {}, removed: 2 });
      assert.ok(notes.every((n, i) => i === 0 || n.progress > notes[i - 1].progress), 'progress only grows');
      assert.match(notes[0].message ?? '', /waiting for (the person|your answer)/i);
    });

    it(`a server that starts slowly sends the agent progress meanwhile (${label})`, async () => {
      const notes: string[] = [];
      const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('slowstart')], { gateway: { heartbeatMs: 100 } });
      const agent = await harness.agent('slowstart', { era });
      // The tsx-run fixture takes about a second to start; 600 ms without progress would time out.
      const result = await agent.callTool({ name: 'echo', arguments: { text: 'hi' } }, { timeout: 600, resetTimeoutOnProgress: true, onprogress: (p) => notes.push(p.message ?? '') });
      assert.deepEqual(toolJson(result as CallToolResult), { echo: 'hi' });
      assert.ok(notes.length > 0 && notes.every((m) => m === 'Starting slowstart'), JSON.stringify(notes));
    });

    it(`a changed tool list reaches the agent (${label})`, async () => {
      const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('todos')]);
      const agent = await harness.agent('todos', { era });
      let changes = 0;
      agent.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
      if (era === 'auto') await agent.listen({ toolsListChanged: true });
      assert.ok(!(await agent.listTools()).tools.some((t) => t.name === 'late_tool_1'));
      await agent.callTool({ name: 'add_tool', arguments: {} });
      await waitUntil('list_changed at the agent', () => changes > 0);
      assert.ok((await agent.listTools()).tools.some((t) => t.name === 'late_tool_1'));
    });

    it(`sampling the server asks for goes to an agent that offers it, and the answer comes back (${label})`, async () => {
      const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('writer')]);
      const agent = await harness.agent('writer', { era, capabilities: { sampling: {} } });
      const prompts: string[] = [];
      agent.setRequestHandler('sampling/createMessage', (request) => {
        prompts.push(JSON.stringify(request.params.messages));
        return cannedCompletion('Hello from the agent');
      });
      const result = toolJson((await agent.callTool({ name: 'ask_model', arguments: { prompt: 'Greet me' } })) as CallToolResult);
      assert.deepEqual(result, { sampled: { role: 'assistant', content: { type: 'text', text: 'Hello from the agent' }, model: 'test-model' } });
      assert.equal(prompts.length, 1);
      assert.match(prompts[0], /Greet me/);
    });
  }

  it('sampling is refused to the server when the agent does not offer it', async () => {
    const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('writer')]);
    const agent = await harness.agent('writer');
    const result = toolJson((await agent.callTool({ name: 'ask_model', arguments: {} })) as CallToolResult);
    assert.equal((result.error as { code: number }).code, -32600);
    assert.match((result.error as { message: string }).message, /cannot answer sampling requests/);
  });

  it('an upstream server dying with a question open: the question closes, the agent gets the reason, the next call starts it again', async () => {
    const prompter = new ScriptedPrompter([waitForAbort, accept()]);
    const harness = await gateways.start(prompter, [gatewayFixture('fragile')]);
    const agent = await harness.agent('fragile');
    const result = (await agent.callTool({ name: 'crash_during_elicitation', arguments: { afterMs: 300 } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.content), /fragile/);
    assert.equal(prompter.asked[0].options.signal.aborted, true);
    const again = toolJson((await agent.callTool({ name: 'confirm_action', arguments: { action: 'retry' } })) as CallToolResult);
    assert.equal(again.action, 'accept');
  });

  it('a URL-mode question is shown to the person as a link, and the agent gets the outcome', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const harness = await gateways.start(prompter, [gatewayFixture('reviews')]);
    const agent = await harness.agent('reviews', { era: 'auto' });
    const result = toolJson((await agent.callTool({ name: 'open_review', arguments: {} })) as CallToolResult);
    assert.equal(result.action, 'accept');
    const { request, options } = prompter.asked[0];
    assert.equal(options.presentation, 'url');
    assert.ok(request.mode === 'url' && request.url === 'https://example.com/review/42');
  });

  it('resources and prompts are forwarded', async () => {
    const harness = await gateways.start(new ScriptedPrompter(), [gatewayFixture('docs')]);
    for (const era of ERAS) {
      const agent = await harness.agent('docs', { era });
      assert.ok((await agent.listResources()).resources.some((r) => r.uri === 'fixture://readme'));
      const read = await agent.readResource({ uri: 'fixture://readme' });
      assert.equal((read.contents[0] as { text: string }).text, 'The fixture resource');
      assert.ok((await agent.listPrompts()).prompts.some((p) => p.name === 'greet'));
      const prompt = await agent.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
      assert.deepEqual(prompt.messages[0].content, { type: 'text', text: 'Hello, Ada' });
    }
  });
});
