/**
 * The API other extensions get: questions asked in the calling extension's own name,
 * shown as an extension whatever name it gives; nothing mutable handed out.
 */
import { strict as assert } from 'node:assert';
import { createApi, REQUESTER_FITS, requesterName } from '../../src/api';
import { Broker } from '../../src/elicitation/broker';
import { InputStore } from '../../src/elicitation/store';
import type { ServerManager } from '../../src/mcp/manager';
import { accept, ScriptedPrompter } from '../support/scripted-prompter';

const confirm = { message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } };

function setup(prompter: ScriptedPrompter) {
  const broker = new Broker({ store: new InputStore(), prompter, checkContent: () => [], forceForm: () => false });
  // requestInput never reaches the server manager: only servers() and callTool() use it.
  return createApi({ broker, manager: {} as ServerManager, applyDefaults: () => false });
}

describe('the extension API', () => {
  it('hands out three functions and no store', () => {
    const api = setup(new ScriptedPrompter());
    assert.deepEqual(Object.keys(api).sort(), ['callTool', 'requestInput', 'servers']);
  });

  it('a question is asked as from the extension, even under a configured server\'s name', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const api = setup(prompter);
    assert.equal((await api.requestInput(confirm, { requester: 'fixture' })).action, 'accept');
    assert.deepEqual(prompter.asked[0].request.source, { server: 'fixture', requester: 'extension' });
  });

  it('the name is text: invisible characters removed, spaces folded, long names cut; none at all is refused', async () => {
    assert.equal(requesterName(' My\u202E\u200B  Extension\n'), 'My Extension');
    assert.equal(requesterName('x'.repeat(200)).length, REQUESTER_FITS);
    const api = setup(new ScriptedPrompter());
    await assert.rejects(api.requestInput(confirm, { requester: '\u200B ' }), /needs options\.requester/);
    await assert.rejects(api.requestInput(confirm, undefined as never), /needs options\.requester/);
  });
});
