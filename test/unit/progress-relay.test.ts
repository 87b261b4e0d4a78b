/**
 * The gateway's heartbeat to the agent while the person answers: its first note comes a moment
 * after the question opens, not in the turn it opens in (VS Code's MCP client handles a note in
 * the workbench's thread while our form is drawn there), even when the connection reports the
 * question in that turn, then one every interval, each greater than the last.
 */
import { strict as assert } from 'node:assert';
import type { Outcome } from '../../src/elicitation/broker';
import { InputStore } from '../../src/elicitation/store';
import { FIRST_BEAT_AFTER_MS, type ProgressNote, ProgressRelay } from '../../src/gateway/progress-relay';
import { createBroker } from '../../src/mcp/create-broker';
import { EMPTY_CONFIRM } from '../fixtures/schemas';
import { ScriptedPrompter } from '../support/scripted-prompter';

describe('the heartbeat to the agent while the person answers', () => {
  it('the first note comes a moment after the question opens (not in its turn, though the connection reports it then), saying what it said, then one per interval, growing', async () => {
    const store = new InputStore();
    const notes: Array<ProgressNote & { at: number }> = [];
    let openedAt = 0;
    let noteInTheOpeningTurn = false;
    let thirdNote!: () => void;
    const threeNotes = new Promise<void>((resolve) => (thirdNote = resolve));
    const relay = new ProgressRelay((note) => {
      notes.push({ ...note, at: Date.now() });
      if (notes.length === 3) thirdNote();
    });
    store.subscribe((state) => {
      if (!openedAt && state.requests.some((r) => r.status === 'open')) {
        openedAt = Date.now();
        // What the connection layer reports as the question opens (elicit-bridge.ts).
        relay.forward({ message: 'todos is waiting for your answer', asking: true });
        // Still the turn the question opened in: the relay's own listener has run by now.
        queueMicrotask(() => (noteInTheOpeningTurn = notes.length > 0));
      }
    });
    const stop = relay.whileAsking(store, () => true, 40);
    let answer!: (outcome: Outcome) => void;
    const prompter = new ScriptedPrompter([() => new Promise<Outcome>((resolve) => (answer = resolve))]);
    const broker = createBroker({ store, prompter, forceForm: () => false });
    const asked = broker.elicit({ message: 'Sure?', requestedSchema: EMPTY_CONFIRM }, { source: { server: 'todos', agent: 'Claude Code' }, signal: new AbortController().signal, applyDefaults: false });
    await threeNotes;
    answer({ action: 'decline' });
    await asked;
    stop();
    assert.equal(noteInTheOpeningTurn, false, 'no note in the turn the question opened');
    assert.ok(notes[0].at - openedAt >= 35, `the first note ${notes[0].at - openedAt} ms after the question opened`);
    assert.ok(notes.every((n, i) => i === 0 || n.progress > notes[i - 1].progress), 'each note greater than the last');
    assert.equal(notes[0].message, 'todos is waiting for your answer');
    assert.ok(FIRST_BEAT_AFTER_MS <= 1000, 'the first note still well inside any request timeout');
  });
});
