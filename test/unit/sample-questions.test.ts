import { strict as assert } from 'node:assert';
import { choosePresentation, sourceLabel } from '../../src/elicitation/request';
import { askSample, SAMPLE_QUESTIONS, SAMPLE_SOURCE, sampleSummary } from '../../src/elicitation/sample-questions';
import { MutedServers } from '../../src/ui/prompts/mutes';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import { accept, cancel, decline, ScriptedPrompter } from '../support/scripted-prompter';

function sampleBroker(prompter: ScriptedPrompter) {
  return createBroker({ store: new InputStore(), prompter, forceForm: () => false });
}

describe('the sample question (Try a Sample Question)', () => {
  it('asks a confirm, a form and a link, in the prompts each gets, headed Sample', async () => {
    const prompter = new ScriptedPrompter([accept(), accept(), decline]);
    const answered = await askSample(sampleBroker(prompter), { signal: new AbortController().signal, applyDefaults: true });
    assert.deepEqual(
      prompter.asked.map(({ request, options }) => [sourceLabel(request.source), request.mode, options.presentation]),
      [
        ['Sample', 'form', 'confirm'],
        ['Sample', 'form', 'form'],
        ['Sample', 'url', 'url'],
      ],
    );
    assert.deepEqual(prompter.asked.map((a) => choosePresentation(a.request, { forceForm: false })), ['confirm', 'form', 'url']);
    assert.deepEqual(answered.map((a) => [a.kind, a.result.action]), [['confirm', 'accept'], ['form', 'accept'], ['link', 'decline']]);
    // The form's defaults fill what the person left as it was.
    assert.deepEqual(answered[1].result.content, { name: 'Ada', guests: 2, date: '2026-12-24', seating: 'inside', reminder: true });
  });

  it('links only to example.com, and is never muted with a server of the same name (the person started it)', () => {
    const link = SAMPLE_QUESTIONS.find((q) => q.kind === 'link')!.params;
    assert.equal('url' in link && link.url, 'https://example.com/');
    assert.equal(MutedServers.canMute(SAMPLE_SOURCE), false);
  });

  it('ends where the person dismisses a question', async () => {
    const prompter = new ScriptedPrompter([cancel]);
    const answered = await askSample(sampleBroker(prompter), { signal: new AbortController().signal, applyDefaults: true });
    assert.equal(prompter.asked.length, 1);
    assert.deepEqual(answered.map((a) => a.result.action), ['cancel']);
  });

  it('says what a server would have received, and that nothing was sent', () => {
    const text = sampleSummary([
      { kind: 'confirm', result: { action: 'accept', content: {} } },
      { kind: 'form', result: { action: 'accept', content: { name: 'Ada', guests: 2 } } },
      { kind: 'link', result: { action: 'decline' } },
    ]);
    assert.equal(text, 'Nothing was sent anywhere. A server would have received: confirm: accept; form: accept with {"name":"Ada","guests":2}; link: decline.');
  });
});
