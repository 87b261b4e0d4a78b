/**
 * The tests' scripted prompter keeps what its steps threw, so that an assertion inside a
 * step fails its test (root-hooks.ts) instead of becoming a quiet decline.
 */
import { strict as assert } from 'node:assert';
import type { AskOptions } from '../../src/elicitation/broker';
import type { InputRequest } from '../../src/elicitation/request';
import { ScriptedPrompter, takeFailedSteps, throwing } from '../support/scripted-prompter';

describe("the tests' scripted prompter", () => {
  const request = { id: 'r1', message: 'Delete these 5 files?' } as InputRequest;
  const options = { signal: new AbortController().signal } as AskOptions;

  it('keeps an assertion that failed in a step, and a request the script has no answer for, for the root hook', async () => {
    const prompter = new ScriptedPrompter([
      (asked) => {
        assert.equal(asked.message, 'Rename these files?');
        return { action: 'decline' };
      },
    ]);
    await assert.rejects(prompter.ask(request, options), /Rename these files/);
    await assert.rejects(prompter.ask(request, options), /the script has no answer for "Delete these 5 files\?"/);
    const kept = takeFailedSteps();
    assert.equal(kept.length, 2);
    assert.match(String(kept[0]), /Rename these files/);
    assert.deepEqual(takeFailedSteps(), [], 'taken once');
  });

  it('does not keep what a step means to throw', async () => {
    await assert.rejects(new ScriptedPrompter([throwing('UI broke')]).ask(request, options), /UI broke/);
    assert.deepEqual(takeFailedSteps(), []);
  });
});
