/**
 * Which questions may take a modal: only those of a call the person started themselves
 * (Run Tool calls as `caller: { kind: 'person' }`). A server's question during any other call, however
 * destructive its tool, is not marked, so the UI asks it in the queue.
 */
import { strict as assert } from 'node:assert';
import { decline, ScriptedPrompter } from '../support/scripted-prompter';
import { withHost, stdioDefinition } from '../support/servers';

describe('connection: questions of a call the person started', () => {
  it('are marked personStarted; the same question from any other call is not', async () => {
    const prompter = new ScriptedPrompter([decline, decline]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition());
      await c.callTool('clear_completed', {}, { caller: { kind: 'person' } });
      await c.callTool('clear_completed', {});
      assert.deepEqual(prompter.asked[0].request.source, { server: 'fixture', tool: 'Clear completed todos', destructive: true, personStarted: true });
      assert.deepEqual(prompter.asked[1].request.source, { server: 'fixture', tool: 'Clear completed todos', destructive: true });
    });
  });
});
