import { strict as assert } from 'node:assert';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import type { FormInputRequest } from '../../src/elicitation/request';
import {
  EMPTY_STORE,
  FINISHED_KEPT,
  findRequest,
  InputStore,
  openRequests,
  reduce,
  type ReduceResult,
  type StoreAction,
  type StoreState,
} from '../../src/elicitation/store';
import { BOOK_RESTAURANT, COLLECT_FEEDBACK } from '../fixtures/schemas';

function request(id: string, schema: object = BOOK_RESTAURANT): FormInputRequest {
  return {
    id,
    mode: 'form',
    source: { server: 'fixture', tool: 'book_restaurant' },
    message: 'Please provide your reservation details:',
    questions: parseRequestedSchemaOrThrow(schema).questions,
    createdAt: 0,
  };
}

function apply(state: StoreState, ...actions: StoreAction[]): StoreState {
  for (const action of actions) {
    const result = reduce(state, action);
    assert.ok(result.ok, result.ok ? '' : result.reason);
    state = result.state;
  }
  return state;
}

function refusal(result: ReduceResult): string {
  assert.ok(!result.ok, 'expected a refusal');
  return result.reason;
}

const submittedBooking: StoreAction[] = [
  { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'party_size', answer: { state: 'submitted', value: { kind: 'number', value: 4 } } },
  { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'date', answer: { state: 'submitted', value: { kind: 'text', value: '2026-12-24' } } },
];

describe('input store reducer', () => {
  it('requested adds an open request with no answers', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') });
    assert.deepEqual(state.requests.map((r) => [r.request.id, r.status, r.answers]), [['r1', 'open', {}]]);
  });

  it('keeps open requests first come first served', () => {
    const state = apply(
      EMPTY_STORE,
      { type: 'requested', request: request('a') },
      { type: 'requested', request: request('b') },
      { type: 'requested', request: request('c') },
      { type: 'completed', requestId: 'a', response: 'cancel' },
      { type: 'requested', request: request('d') },
    );
    assert.deepEqual(openRequests(state).map((r) => r.request.id), ['b', 'c', 'd']);
    assert.deepEqual(state.requests.map((r) => r.request.id), ['b', 'c', 'd', 'a']);
  });

  it('refuses a duplicate request id', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') });
    assert.equal(refusal(reduce(state, { type: 'requested', request: request('r1') })), 'a request with id r1 already exists');
  });

  it('answerChanged records drafts, submitted and skipped answers, and clears', () => {
    let state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') });
    state = apply(state, {
      type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'party_size', answer: { state: 'draft', value: { kind: 'number', value: 3 } },
    });
    assert.deepEqual(findRequest(state, 'r1')?.answers.party_size, { state: 'draft', value: { kind: 'number', value: 3 } });
    state = apply(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'dietary', answer: { state: 'skipped' } });
    assert.deepEqual(findRequest(state, 'r1')?.answers.dietary, { state: 'skipped' });
    state = apply(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'party_size' });
    assert.deepEqual(Object.keys(findRequest(state, 'r1')!.answers), ['dietary']);
  });

  it('refuses an answer for an unknown request or question', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') });
    assert.equal(
      refusal(reduce(state, { type: 'answerChanged', origin: 'page', requestId: 'nope', questionId: 'date', answer: { state: 'skipped' } })),
      'no input request has id nope',
    );
    assert.equal(
      refusal(reduce(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'nope', answer: { state: 'skipped' } })),
      'input request r1 has no question nope',
    );
  });

  it('one rule of drafts, by origin: no one but the person overwrites what the person changed (another answerer, nor the asker); a secret takes the person\'s only', () => {
    const text = (value: string) => ({ state: 'draft' as const, value: { kind: 'text' as const, value } });
    const withSecret = { type: 'object', properties: { date: { type: 'string' }, note: { type: 'string' }, password: { type: 'string' } } };
    let state = apply(EMPTY_STORE, { type: 'requested', request: request('r1', withSecret) });
    // Before the person changed anything, another client's draft is taken.
    state = apply(state, { type: 'answerChanged', origin: 'remote-client', requestId: 'r1', questionId: 'date', answer: text('2027-01-01') });
    assert.deepEqual([...findRequest(state, 'r1')!.changedByPerson], [], "another's draft is not the person's change");
    // The person changes it (in the page or the quick input): from then on it is theirs.
    state = apply(state, { type: 'answerChanged', origin: 'quick-input', requestId: 'r1', questionId: 'date', answer: text('2027-02-02') });
    assert.match(
      refusal(reduce(state, { type: 'answerChanged', origin: 'remote-client', requestId: 'r1', questionId: 'date', answer: text('2027-03-03') })),
      /^the person changed date since it opened/,
    );
    assert.match(refusal(reduce(state, { type: 'answerChanged', origin: 'remote-client', requestId: 'r1', questionId: 'date' })), /person changed date/, 'nor cleared');
    // Another question of the same request is still open to it; the person's own changes always go in.
    state = apply(
      state,
      { type: 'answerChanged', origin: 'remote-client', requestId: 'r1', questionId: 'note', answer: text('theirs') },
      { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'date', answer: text('2027-04-04') },
    );
    // The extension that asked updates its own request's drafts (the API's updateDraft), but not one the person changed.
    assert.match(refusal(reduce(state, { type: 'answerChanged', origin: 'asker', requestId: 'r1', questionId: 'date', answer: text('2027-05-05') })), /^the person changed date/);
    state = apply(state, { type: 'answerChanged', origin: 'asker', requestId: 'r1', questionId: 'note', answer: text('the asker\'s') });
    assert.deepEqual(findRequest(state, 'r1')!.answers, { date: text('2027-04-04'), note: text('the asker\'s') });
    // A secret: only the person's own typing goes in (a masked field would hide anyone else's value).
    for (const origin of ['remote-client', 'asker'] as const) {
      assert.match(refusal(reduce(state, { type: 'answerChanged', origin, requestId: 'r1', questionId: 'password', answer: text('planted') })), /password asks for a secret/);
    }
    state = apply(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'password', answer: text('hunter2') });
    assert.deepEqual([...findRequest(state, 'r1')!.changedByPerson].sort(), ['date', 'password']);
  });

  it('refuses an answer whose kind or value type does not match the question', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') });
    assert.equal(
      refusal(reduce(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'party_size', answer: { state: 'draft', value: { kind: 'text', value: '4' } } })),
      'the answer to party_size is not of kind integer',
    );
    const lying = { state: 'draft', value: { kind: 'number', value: '4' } } as never;
    assert.equal(
      refusal(reduce(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'party_size', answer: lying })),
      'the answer to party_size is not of kind integer',
    );
    const missing = { state: 'submitted' } as never;
    assert.equal(
      refusal(reduce(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'party_size', answer: missing })),
      'the answer to party_size has no value',
    );
  });

  it('refuses accept while a required question has no submitted answer', () => {
    let state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') }, submittedBooking[0]);
    assert.equal(
      refusal(reduce(state, { type: 'completed', requestId: 'r1', response: 'accept' })),
      'cannot accept: no submitted answer for date',
    );
    state = apply(state, {
      type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'date', answer: { state: 'draft', value: { kind: 'text', value: '2026-12-24' } },
    });
    assert.equal(
      refusal(reduce(state, { type: 'completed', requestId: 'r1', response: 'accept' })),
      'cannot accept: no submitted answer for date',
    );
  });

  it('completed accept with every required answer submitted', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') }, ...submittedBooking, {
      type: 'completed', requestId: 'r1', response: 'accept',
    });
    const done = findRequest(state, 'r1')!;
    assert.equal(done.status, 'accepted');
    assert.deepEqual(openRequests(state), []);
  });

  it('completed accept may bring its answers with it', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r2', COLLECT_FEEDBACK) }, {
      type: 'completed', requestId: 'r2', response: 'accept',
      answers: { rating: { state: 'submitted', value: { kind: 'selected', value: '4' } } },
    });
    assert.equal(findRequest(state, 'r2')?.status, 'accepted');
    assert.deepEqual(findRequest(state, 'r2')?.answers.rating, { state: 'submitted', value: { kind: 'selected', value: '4' } });
  });

  it('completed refuses answers for unknown questions or of the wrong kind', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r2', COLLECT_FEEDBACK) });
    assert.equal(
      refusal(reduce(state, { type: 'completed', requestId: 'r2', response: 'accept', answers: { ghost: { state: 'skipped' } } })),
      'input request r2 has no question ghost',
    );
    assert.equal(
      refusal(reduce(state, {
        type: 'completed', requestId: 'r2', response: 'accept',
        answers: { rating: { state: 'submitted', value: { kind: 'number', value: 4 } } },
      })),
      'the answer to rating is not of kind single-select',
    );
  });

  it('decline and cancel need no answers and keep the drafts', () => {
    for (const [response, status] of [['decline', 'declined'], ['cancel', 'cancelled']] as const) {
      const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') }, submittedBooking[0], {
        type: 'completed', requestId: 'r1', response,
      });
      assert.equal(findRequest(state, 'r1')?.status, status);
      assert.ok(findRequest(state, 'r1')?.answers.party_size);
    }
  });

  it('abandoned records why', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') }, {
      type: 'abandoned', requestId: 'r1', reason: 'the server stopped',
    });
    assert.deepEqual([findRequest(state, 'r1')?.status, findRequest(state, 'r1')?.reason], ['abandoned', 'the server stopped']);
  });

  it('refuses any change to a finished request, and completing an unknown one', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') }, { type: 'completed', requestId: 'r1', response: 'decline' });
    assert.equal(refusal(reduce(state, { type: 'completed', requestId: 'r1', response: 'accept' })), 'input request r1 is already declined');
    assert.equal(
      refusal(reduce(state, { type: 'answerChanged', origin: 'page', requestId: 'r1', questionId: 'date', answer: { state: 'skipped' } })),
      'input request r1 is already declined',
    );
    assert.equal(refusal(reduce(state, { type: 'abandoned', requestId: 'r1', reason: 'x' })), 'input request r1 is already declined');
    assert.equal(refusal(reduce(state, { type: 'completed', requestId: 'zz', response: 'cancel' })), 'no input request has id zz');
  });

  it('keeps a bounded history of finished requests but never drops open ones', () => {
    let state = EMPTY_STORE;
    for (let i = 0; i < FINISHED_KEPT + 10; i++) {
      state = apply(state, { type: 'requested', request: request(`done${i}`) }, { type: 'completed', requestId: `done${i}`, response: 'cancel' });
    }
    state = apply(state, { type: 'requested', request: request('open') });
    assert.equal(state.requests.length, FINISHED_KEPT + 1);
    assert.equal(state.requests[0].request.id, 'open');
    assert.equal(state.requests[1].request.id, `done${FINISHED_KEPT + 9}`);
  });

  it('a question named __proto__ is answered like any other', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    const state = apply(
      EMPTY_STORE,
      { type: 'requested', request: request('p', schema) },
      { type: 'answerChanged', origin: 'page', requestId: 'p', questionId: '__proto__', answer: { state: 'submitted', value: { kind: 'text', value: 'x' } } },
      { type: 'completed', requestId: 'p', response: 'accept' },
    );
    const answers = findRequest(state, 'p')!.answers;
    assert.equal(Object.getPrototypeOf(answers), Object.prototype);
    assert.deepEqual(Object.keys(answers), ['__proto__']);
  });

  it('a refused action leaves the state untouched', () => {
    const state = apply(EMPTY_STORE, { type: 'requested', request: request('r1') });
    const before = JSON.stringify(state);
    reduce(state, { type: 'completed', requestId: 'r1', response: 'accept' });
    assert.equal(JSON.stringify(state), before);
  });
});

describe('InputStore', () => {
  it('dispatches through the reducer and tells listeners only of accepted changes', () => {
    const store = new InputStore();
    const seen: string[] = [];
    const unsubscribe = store.subscribe((state, action) => seen.push(`${action.type}:${openRequests(state).length}`));
    assert.ok(store.dispatch({ type: 'requested', request: request('r1') }).ok);
    assert.ok(!store.dispatch({ type: 'completed', requestId: 'r1', response: 'accept' }).ok);
    assert.ok(store.dispatch({ type: 'completed', requestId: 'r1', response: 'decline' }).ok);
    unsubscribe();
    store.dispatch({ type: 'requested', request: request('r2') });
    assert.deepEqual(seen, ['requested:1', 'completed:0']);
    assert.equal(openRequests(store.state).length, 1);
  });
});
