import { strict as assert } from 'node:assert';
import { Broker } from '../../src/elicitation/broker';
import { InputStore } from '../../src/elicitation/store';
import { MutedServers } from '../../src/ui/prompts/mutes';
import { EMPTY_CONFIRM } from '../fixtures/schemas';
import { accept, ScriptedPrompter } from '../support/scripted-prompter';

function setup(): { broker: Broker; store: InputStore; prompter: ScriptedPrompter; mutes: MutedServers; logged: string[] } {
  const logged: string[] = [];
  const mutes = new MutedServers({ info: (m) => logged.push(m) });
  const store = new InputStore();
  const prompter = new ScriptedPrompter([accept(), accept()]);
  const broker = new Broker({ store, prompter, checkContent: () => [], forceForm: () => false, isMuted: (source) => mutes.declines(source) });
  return { broker, store, prompter, mutes, logged };
}

const confirm = { message: 'Proceed?', requestedSchema: EMPTY_CONFIRM };
const context = (server: string, requester?: 'extension') => ({ source: { server, ...(requester && { requester }) }, signal: new AbortController().signal, applyDefaults: true });

describe('muted servers', () => {
  it('a muted server\'s questions are declined without asking, logged, and nothing is left in the store', async () => {
    const { broker, store, prompter, mutes, logged } = setup();
    mutes.mute('noisy');
    assert.deepEqual(await broker.elicit(confirm, context('noisy')), { action: 'decline' });
    assert.deepEqual(await broker.elicit({ mode: 'url', message: 'Open', url: 'https://example.com/' }, context('noisy')), { action: 'decline' });
    assert.equal(prompter.asked.length, 0, 'nothing was shown');
    assert.equal(store.state.requests.length, 0);
    assert.equal(logged.filter((l) => l === 'Declined a question from noisy without asking: the server is muted').length, 2);
  });

  it('a call the person started is still asked while its server is muted, and offers no mute', async () => {
    const { broker, prompter, mutes } = setup();
    mutes.mute('noisy');
    const own = { source: { server: 'noisy', tool: 'deploy', personStarted: true }, signal: new AbortController().signal, applyDefaults: true };
    assert.equal((await broker.elicit(confirm, own)).action, 'accept');
    assert.equal(prompter.asked.length, 1);
    assert.equal(MutedServers.canMute(own.source), false);
    assert.equal(MutedServers.canMute({ server: 'noisy', tool: 'deploy' }), true);
  });

  it('other servers, and extensions that happen to use the name, are still asked', async () => {
    const { broker, prompter, mutes } = setup();
    mutes.mute('noisy');
    assert.equal((await broker.elicit(confirm, context('quiet'))).action, 'accept');
    assert.equal((await broker.elicit(confirm, context('noisy', 'extension'))).action, 'accept');
    assert.deepEqual(prompter.asked.map((a) => a.request.source.server), ['quiet', 'noisy']);
  });

  it('unmuting asks again; every change is announced once', async () => {
    const { broker, prompter, mutes, logged } = setup();
    let changes = 0;
    const stop = mutes.onDidChange(() => changes++);
    mutes.mute('noisy');
    mutes.mute('noisy');
    assert.ok(mutes.has('noisy'));
    mutes.unmute('noisy');
    mutes.unmute('noisy');
    stop();
    mutes.mute('noisy');
    assert.equal(changes, 2);
    mutes.unmute('noisy');
    assert.equal((await broker.elicit(confirm, context('noisy'))).action, 'accept');
    assert.equal(prompter.asked.length, 1);
    assert.ok(logged.some((l) => /noisy is unmuted/.test(l)));
  });
});
