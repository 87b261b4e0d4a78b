import { strict as assert } from 'node:assert';
import { AnswerCheckError, type Broker, TooManyRequestsError, type ElicitContext } from '../../src/elicitation/broker';
import { InvalidSchemaError } from '../../src/elicitation/schema';
import { findRequest, InputStore, openRequests } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import { BOOK_RESTAURANT, EMPTY_CONFIRM, INVALID_NESTED } from '../fixtures/schemas';
import { accept, cancel, decline, ScriptedPrompter, throwing, waitForAbort } from '../support/scripted-prompter';

function setup(prompter: ScriptedPrompter, forceForm = false): { broker: Broker; store: InputStore } {
  const store = new InputStore();
  const broker = createBroker({ store, prompter, forceForm: () => forceForm });
  return { broker, store };
}

function ctx(overrides: Partial<ElicitContext> = {}): ElicitContext {
  return { source: { server: 'fixture', tool: 'book_restaurant' }, signal: new AbortController().signal, applyDefaults: false, ...overrides };
}

const booking = { message: 'Please provide your reservation details:', requestedSchema: BOOK_RESTAURANT };

describe('broker', () => {
  it('accept: typed content goes back and the store records the submitted answers', async () => {
    const prompter = new ScriptedPrompter([accept({ party_size: 4, date: '2026-12-24', dietary: 'vegan' })]);
    const { broker, store } = setup(prompter);
    const result = await broker.elicit(booking, ctx());
    assert.deepEqual(result, { action: 'accept', content: { party_size: 4, date: '2026-12-24', dietary: 'vegan' } });
    const [asked] = prompter.asked;
    assert.equal(asked.options.presentation, 'form');
    assert.deepEqual(asked.request.source, { server: 'fixture', tool: 'book_restaurant' });
    assert.equal(findRequest(store.state, asked.request.id)?.status, 'accepted');
  });

  it('decline and cancel reach the server as they are, without content', async () => {
    for (const [step, action] of [[decline, 'decline'], [cancel, 'cancel']] as const) {
      const { broker, store } = setup(new ScriptedPrompter([step]));
      assert.deepEqual(await broker.elicit(booking, ctx()), { action });
      assert.equal(store.state.requests[0].status, action === 'decline' ? 'declined' : 'cancelled');
    }
  });

  it('an empty schema is a confirm; accept sends empty content', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const { broker } = setup(prompter);
    assert.deepEqual(await broker.elicit({ message: 'Remove 5 todos?', requestedSchema: EMPTY_CONFIRM }, ctx()), { action: 'accept', content: {} });
    assert.equal(prompter.asked[0].options.presentation, 'confirm');
  });

  it('the forceForm setting is read for every request', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const { broker } = setup(prompter, true);
    await broker.elicit({ message: 'ok?', requestedSchema: EMPTY_CONFIRM }, ctx());
    assert.equal(prompter.asked[0].options.presentation, 'form');
  });

  it('applies defaults for fields left empty when the capability says so', async () => {
    const { broker, store } = setup(new ScriptedPrompter([accept({ date: '2026-12-24' })]));
    const result = await broker.elicit(booking, ctx({ applyDefaults: true }));
    assert.deepEqual(result, { action: 'accept', content: { party_size: 2, date: '2026-12-24', dietary: 'none' } });
    assert.equal(store.state.requests[0].answers.party_size.state, 'submitted');
  });

  it('an invalid schema throws with every problem, before anything is shown', async () => {
    const prompter = new ScriptedPrompter();
    const { broker, store } = setup(prompter);
    await assert.rejects(broker.elicit({ message: 'x', requestedSchema: INVALID_NESTED }, ctx()), (e: unknown) => {
      assert.ok(e instanceof InvalidSchemaError);
      assert.match(e.message, /properties\.address: nested objects are not allowed in elicitation schemas/);
      return true;
    });
    assert.equal(prompter.asked.length, 0);
    assert.equal(store.state.requests.length, 0);
  });

  it('a repeated schema is parsed once; a refused one is refused every time, with its problems', async () => {
    const prompter = new ScriptedPrompter([], accept({ party_size: 2, date: '2026-12-24' }));
    const { broker } = setup(prompter);
    for (let i = 0; i < 3; i++) {
      // A fresh copy each time, as every message from a server is.
      await broker.elicit({ message: 'Book?', requestedSchema: structuredClone(BOOK_RESTAURANT) }, ctx());
    }
    const [first, ...rest] = prompter.asked.map((a) => a.request.questions);
    for (const questions of rest) assert.equal(questions, first);
    for (let i = 0; i < 2; i++) {
      await assert.rejects(broker.elicit({ message: 'x', requestedSchema: structuredClone(INVALID_NESTED) }, ctx()), /properties\.address: nested objects/);
    }
  });

  it('a surface that hands over invalid answers is asked again with the errors', async () => {
    const prompter = new ScriptedPrompter([
      accept({ party_size: 99, date: '2026-12-24' }),
      accept({ party_size: 3, date: '2026-12-24' }),
    ]);
    const { broker } = setup(prompter);
    const result = await broker.elicit(booking, ctx());
    assert.deepEqual(result, { action: 'accept', content: { party_size: 3, date: '2026-12-24' } });
    assert.deepEqual(prompter.asked[1].options.errors, [{ questionId: 'party_size', message: 'Party Size must be between 1 and 20' }]);
  });

  it('when the server stops waiting, the prompt is told to close and the request is abandoned', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    const { broker, store } = setup(prompter);
    const server = new AbortController();
    const pending = broker.elicit(booking, ctx({ signal: server.signal }));
    await new Promise((r) => setImmediate(r));
    assert.equal(openRequests(store.state).length, 1);
    server.abort(new Error('the server cancelled the request'));
    assert.deepEqual(await pending, { action: 'cancel' });
    assert.equal(prompter.asked[0].options.signal.aborted, true);
    assert.deepEqual([store.state.requests[0].status, store.state.requests[0].reason], ['abandoned', 'the server cancelled the request']);
  });

  it('a question whose wait is already over (a turn stopped just before it came) ends as cancel and is never shown', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    const { broker, store } = setup(prompter);
    const stopped = new AbortController();
    stopped.abort(new Error('the turn was cancelled'));
    assert.deepEqual(await broker.elicit(booking, ctx({ signal: stopped.signal })), { action: 'cancel' });
    assert.equal(prompter.asked.length, 0, 'nothing was put to the person');
    assert.deepEqual(store.state.requests, [], 'nothing waits in the store (the panel would say "Waiting for your answer")');
  });

  it('the prompt is told to close once the answer is in, too', async () => {
    const prompter = new ScriptedPrompter([decline]);
    const { broker } = setup(prompter);
    await broker.elicit(booking, ctx());
    assert.equal(prompter.asked[0].options.signal.aborted, true);
  });

  it('lets each call in flight have its question open: the cap is at least the calls the person and agents made', async () => {
    const prompter = new ScriptedPrompter([], waitForAbort);
    const { broker } = setup(prompter);
    // Each call its own signal, as each request from a server has.
    const calls = Array.from({ length: 25 }, () => new AbortController());
    const pending = calls.map((call) => broker.elicit(booking, ctx({ signal: call.signal, callsInFlight: 25 })));
    await assert.rejects(broker.elicit(booking, ctx({ signal: new AbortController().signal, callsInFlight: 25 })), TooManyRequestsError);
    for (const call of calls) call.abort();
    assert.equal((await Promise.all(pending)).every((r) => r.action === 'cancel'), true);
  });

  it('refuses a server that floods requests, and counts per server', async () => {
    const prompter = new ScriptedPrompter([], waitForAbort);
    const { broker } = setup(prompter);
    const server = new AbortController();
    const pending = Array.from({ length: 10 }, () => broker.elicit(booking, ctx({ signal: server.signal })));
    await assert.rejects(broker.elicit(booking, ctx({ signal: server.signal })), TooManyRequestsError);
    const other = new AbortController();
    const fromOther = broker.elicit(booking, ctx({ source: { server: 'other' }, signal: other.signal }));
    server.abort();
    other.abort();
    assert.equal((await Promise.all([...pending, fromOther])).every((r) => r.action === 'cancel'), true);
  });

  it('never sends content that fails the final schema check', async () => {
    const store = new InputStore();
    const broker = createBroker({
      store,
      prompter: new ScriptedPrompter([accept({ party_size: 4, date: '2026-12-24' })]),
      checkContent: () => ['/party_size is wrong'],
    });
    await assert.rejects(broker.elicit(booking, ctx()), AnswerCheckError);
    assert.equal(openRequests(store.state).length, 0);
  });

  it('a prompter that throws finishes the request and passes the error on', async () => {
    const { broker, store } = setup(new ScriptedPrompter([throwing('UI broke')]));
    await assert.rejects(broker.elicit(booking, ctx()), /UI broke/);
    assert.equal(openRequests(store.state).length, 0);
  });
});
