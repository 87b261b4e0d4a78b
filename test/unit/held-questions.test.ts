/**
 * A background task's question waits for the person (Pending Inputs) instead of taking the
 * screen: it is announced, asked only once the person opens it, and when it ends while it
 * waits the person is told why (a task's time to live ran out, say).
 */
import { strict as assert } from 'node:assert';
import type { Outcome } from '../../src/elicitation/broker';
import type { InputRequest } from '../../src/elicitation/request';
import { HeldQuestions } from '../../src/ui/prompts/held-questions';

function request(id: string, background = true): InputRequest {
  return { id, mode: 'form', source: { server: 'everything', tool: 'Research', ...(background && { background: true }) }, message: 'Which one?', questions: [], createdAt: 0 };
}

function setup() {
  const announced: string[] = [];
  const ended: Array<{ id: string; why: unknown }> = [];
  const held = new HeldQuestions(
    (r) => announced.push(r.id),
    (r, signal) => ended.push({ id: r.id, why: (signal.reason as Error).message }),
  );
  const asked: string[] = [];
  const ask = (id: string, outcome: Outcome = { action: 'decline' }) => (): Promise<Outcome> => (asked.push(id), Promise.resolve(outcome));
  return { held, announced, ended, asked, ask };
}

describe('questions of background tasks wait for the person', () => {
  it('only a background task\'s question is held', () => {
    assert.equal(HeldQuestions.holds(request('a')), true);
    assert.equal(HeldQuestions.holds(request('b', false)), false);
  });

  it('is announced, not asked, until the person opens it; then asked, and its outcome returned', async () => {
    const { held, announced, asked, ask } = setup();
    const signal = new AbortController().signal;
    const outcome = held.hold(request('a'), signal, ask('a', { action: 'accept', answers: {} }));
    assert.deepEqual(announced, ['a']);
    assert.deepEqual(asked, []);
    assert.deepEqual(held.waiting, ['a']);
    assert.equal(held.release('a'), true);
    assert.deepEqual(await outcome, { action: 'accept', answers: {} });
    assert.deepEqual(asked, ['a']);
    assert.deepEqual(held.waiting, []);
    assert.equal(held.release('a'), false, 'nothing is held any more');
  });

  it('once opened, the same request asked again (its answer refused) is asked at once, not announced again', async () => {
    const { held, announced, asked, ask } = setup();
    const done = new AbortController();
    const first = held.hold(request('a'), done.signal, ask('a'));
    held.release('a');
    await first;
    await held.hold(request('a'), done.signal, ask('a'));
    assert.deepEqual(asked, ['a', 'a']);
    assert.deepEqual(announced, ['a']);
    // The request is over: the same id later (it never is, but the set must not grow) is held again.
    done.abort(new Error('request a is finished'));
    void held.hold(request('a'), new AbortController().signal, ask('a'));
    assert.deepEqual(announced, ['a', 'a']);
  });

  it('ends while it waits: the person is told why, and the hold settles as cancel (the broker has moved on)', async () => {
    const { held, ended, asked, ask } = setup();
    const withdrawn = new AbortController();
    const outcome = held.hold(request('a'), withdrawn.signal, ask('a'));
    withdrawn.abort(new Error("the task's time to live ran out (10 min) before it was answered"));
    assert.deepEqual(await outcome, { action: 'cancel' });
    assert.deepEqual(ended, [{ id: 'a', why: "the task's time to live ran out (10 min) before it was answered" }]);
    assert.deepEqual(asked, []);
    assert.equal(held.release('a'), false);
  });

  it('already ended when it arrives: neither announced nor asked', async () => {
    const { held, announced, asked, ask } = setup();
    const gone = new AbortController();
    gone.abort(new Error('the call ended'));
    assert.deepEqual(await held.hold(request('a'), gone.signal, ask('a')), { action: 'cancel' });
    assert.deepEqual(announced, []);
    assert.deepEqual(asked, []);
  });
});
