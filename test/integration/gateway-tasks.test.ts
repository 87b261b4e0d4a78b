/**
 * The gateway with the reference "everything" server behind it: every one of its tools
 * reaches agents (the two "-async" ones because we take task-backed questions upstream),
 * task tools as plain tools whether or not the agent speaks Tasks; we run the task, ask its
 * questions here, and the agent gets the final result.
 */
import { strict as assert } from 'node:assert';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { everythingDefinition, waitForTools } from '../support/everything';
import { cannedCompletion, gatewaysPerTest } from '../support/gateway-harness';
import { accept, ScriptedPrompter } from '../support/scripted-prompter';

const ALL_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-roots-list',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-elicitation-request',
  'trigger-elicitation-request-async',
  'trigger-long-running-operation',
  'trigger-sampling-request',
  'trigger-sampling-request-async',
  'trigger-url-elicitation',
];

function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('gateway: the reference server\'s task tools, for agents with and without Tasks', function () {
  this.timeout(60_000);
  const gateways = gatewaysPerTest();

  it('lists all of its tools to a plain agent, the task tool as a plain tool', async () => {
    const harness = await gateways.start(new ScriptedPrompter(), [everythingDefinition()]);
    const [{ connection }] = harness.connections;
    await connection.start();
    await waitForTools(connection, ['trigger-sampling-request-async', 'trigger-elicitation-request-async', 'simulate-research-query']);
    const agent = await harness.agent('everything');
    const { tools } = await agent.listTools();
    const names = tools.map((t) => t.name).sort();
    // 2026.8.31 registers 19 for a client that declares sampling, roots, URL elicitation and task-backed questions, as we do upstream.
    assert.deepEqual(names, ALL_TOOLS);
    const research = tools.find((t) => t.name === 'simulate-research-query') as { execution?: { taskSupport?: unknown } };
    assert.equal(research.execution?.taskSupport, undefined);
  });

  for (const kind of ['a plain agent', 'an agent that speaks Tasks'] as const) {
    it(`${kind} calls the task tool and gets the final result; its clarification is asked here, for that agent`, async () => {
      const prompter = new ScriptedPrompter([accept({ interpretation: 'comedy' })]);
      const harness = await gateways.start(prompter, [everythingDefinition()]);
      await harness.connections[0].connection.start();
      await waitForTools(harness.connections[0].connection, ['simulate-research-query']);
      const agent = await harness.agent('everything', {
        name: 'task-agent',
        era: 'legacy',
        ...(kind === 'an agent that speaks Tasks' && { capabilities: { tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } }, elicitation: { form: {} } } }),
      });
      const result = await agent.callTool({ name: 'simulate-research-query', arguments: { topic: 'python', ambiguous: true } });
      assert.match(text(result), /Research Report: python \(comedy\)/);
      assert.deepEqual(prompter.asked[0].request.source, { server: 'everything', tool: 'Simulate Research Query', agent: 'task-agent', background: true });
    });
  }

  it('a task-backed sampling request goes to the calling agent, which can sample', async () => {
    const harness = await gateways.start(new ScriptedPrompter(), [everythingDefinition()]);
    await harness.connections[0].connection.start();
    await waitForTools(harness.connections[0].connection, ['trigger-sampling-request-async']);
    const agent = await harness.agent('everything', { era: 'legacy', capabilities: { sampling: {} } });
    const asked: unknown[] = [];
    agent.setRequestHandler('sampling/createMessage', (request) => {
      asked.push(request.params);
      return cannedCompletion('Tides follow the moon');
    });
    const result = text(await agent.callTool({ name: 'trigger-sampling-request-async', arguments: { prompt: 'Why tides?' } }));
    assert.match(result, /\[COMPLETED\] Async sampling completed!/);
    assert.match(result, /Tides follow the moon/);
    assert.equal(asked.length, 1);
  });

  it('a task-backed question through the gateway is answered here, and the agent gets what the server made of it', async () => {
    const prompter = new ScriptedPrompter([accept({ name: 'Lin', favoriteColor: 'Purple' })]);
    const harness = await gateways.start(prompter, [everythingDefinition()]);
    await harness.connections[0].connection.start();
    await waitForTools(harness.connections[0].connection, ['trigger-elicitation-request-async']);
    const agent = await harness.agent('everything', { name: 'async-agent', era: 'auto' });
    const result = text(await agent.callTool({ name: 'trigger-elicitation-request-async', arguments: {} }));
    assert.match(result, /- Name: Lin\n- Favorite Color: Purple/);
    assert.equal(prompter.asked[0].request.source.agent, 'async-agent');
  });
});
