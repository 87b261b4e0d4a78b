/**
 * The history: one entry per finished request, built from the store through the real
 * broker; how each ended, in words; secrets masked before anything is kept; bounded; read
 * back from storage only when shaped like entries; the result of the person's own call.
 */
import { strict as assert } from 'node:assert';
import type { ElicitContext } from '../../src/elicitation/broker';
import { History, HISTORY_KEPT, type HistoryEntry, outcomeOf, restoreHistory } from '../../src/elicitation/history';
import { historyText } from '../../src/elicitation/history-text';
import { MASKED } from '../../src/elicitation/shown-answer';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import { describeServerAbort } from '../../src/mcp/errors';
import { BOOK_RESTAURANT, EMPTY_CONFIRM } from '../fixtures/schemas';
import { accept, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';

function setup(prompter: ScriptedPrompter, now = () => 1_000) {
  const store = new InputStore();
  const broker = createBroker({ store, prompter, forceForm: () => false });
  const history = new History([], now);
  history.follow(store);
  return { broker, history };
}

const ctx = (overrides: Partial<ElicitContext> = {}): ElicitContext => ({ source: { server: 'fixture', tool: 'book_restaurant' }, signal: new AbortController().signal, applyDefaults: false, ...overrides });
const SECRET = { type: 'object', properties: { api_token: { type: 'string', title: 'API token' }, note: { type: 'string', title: 'Note' } }, required: ['api_token'] };

describe('the history of questions and answers', () => {
  it('records each finished request, newest first: the answers of an accepted form, a decline without answers', async () => {
    const { broker, history } = setup(new ScriptedPrompter([accept({ party_size: 4, date: '2026-12-24', dietary: 'vegan' }), decline]));
    await broker.elicit({ message: 'Book?', requestedSchema: BOOK_RESTAURANT }, ctx());
    await broker.elicit({ message: 'Sure?', requestedSchema: EMPTY_CONFIRM }, ctx({ source: { server: 'second', agent: 'Claude Code' } }));
    const [declined, accepted] = history.entries;
    assert.equal(declined.outcome, 'declined');
    assert.deepEqual(declined.source, { server: 'second', agent: 'Claude Code' });
    assert.deepEqual(declined.answers, []);
    assert.equal(accepted.outcome, 'accepted');
    assert.deepEqual(accepted.answers, [
      { question: 'Party Size', answer: '4' },
      { question: 'Reservation Date', answer: '2026-12-24' },
      { question: 'Dietary Restrictions', answer: 'Vegan' },
    ]);
    assert.equal(accepted.endedAt, 1_000);
  });

  it('a new window records its requests beside the stored ones, though request ids start again', async () => {
    const first = setup(new ScriptedPrompter([decline]));
    await first.broker.elicit({ message: 'Earlier window', requestedSchema: EMPTY_CONFIRM }, ctx());
    const stored = restoreHistory(JSON.parse(JSON.stringify(first.history.entries)));
    const store = new InputStore();
    const broker = createBroker({ store, prompter: new ScriptedPrompter([decline]), forceForm: () => false });
    const history = new History(stored);
    history.follow(store);
    await broker.elicit({ message: 'This window', requestedSchema: EMPTY_CONFIRM }, ctx());
    assert.deepEqual(history.entries.map((e) => e.message), ['This window', 'Earlier window']);
    assert.notEqual(history.entries[0].id, history.entries[1].id);
  });

  it("leaves out Run Tool's own questions (the arguments): the person's, not an agent's", async () => {
    const { broker, history } = setup(new ScriptedPrompter([accept({ party_size: 2, date: '2027-01-01' })]));
    await broker.elicit({ message: 'Arguments for book_restaurant', requestedSchema: BOOK_RESTAURANT }, ctx({ source: { server: 'fixture', tool: 'book_restaurant', personStarted: true, ownQuestion: true } }));
    assert.deepEqual(history.entries, []);
  });

  it('masks secret-looking answers before the entry exists: not in the entry, its document or its stored form', async () => {
    const { broker, history } = setup(new ScriptedPrompter([accept({ api_token: 'sk-live-1234567890', note: 'for CI' })]));
    await broker.elicit({ message: 'Paste your API token', requestedSchema: SECRET }, ctx());
    const [entry] = history.entries;
    assert.deepEqual(entry.answers, [{ question: 'API token', answer: MASKED }, { question: 'Note', answer: 'for CI' }]);
    for (const text of [JSON.stringify(entry), historyText(entry), JSON.stringify(restoreHistory(JSON.parse(JSON.stringify(history.entries))))]) {
      assert.ok(!text.includes('sk-live-1234567890'), text);
    }
  });

  it('a request the server withdrew, one abandoned because its server or call ended, and one that timed out stay visible, each saying so', async () => {
    const { broker, history } = setup(new ScriptedPrompter([], waitForAbort));
    for (const reason of [new Error(describeServerAbort('fixture', 'no longer needed')), new Error(describeServerAbort('fixture', Object.assign(new Error('Connection closed'), { code: 'CONNECTION_CLOSED' }))), new Error('the call to book_restaurant ended'), new Error('no answer within 30 s')]) {
      const controller = new AbortController();
      const asked = broker.elicit({ message: 'Sure?', requestedSchema: EMPTY_CONFIRM }, ctx({ signal: controller.signal }));
      controller.abort(reason);
      await asked;
    }
    assert.deepEqual(history.entries.map((e) => [e.outcome, e.reason]).reverse(), [
      ['withdrawn', 'fixture withdrew the question: no longer needed'],
      ['abandoned', 'fixture disconnected'],
      ['abandoned', 'the call to book_restaurant ended'],
      ['timed out', 'no answer within 30 s'],
    ]);
    assert.match(historyText(history.entries[0]), /Ended: {2}.*, timed out \(no answer within 30 s\)/);
  });

  it('how a request ended, from its status and reason', () => {
    assert.equal(outcomeOf('accepted'), 'accepted');
    assert.equal(outcomeOf('cancelled'), 'cancelled');
    assert.equal(outcomeOf('abandoned', 'second was stopped'), 'abandoned');
  });

  it('is bounded, newest kept', () => {
    const history = new History();
    const entry = (i: number): HistoryEntry => ({ id: `r${i}`, source: { server: 's' }, mode: 'form', message: `m${i}`, askedAt: i, endedAt: i, outcome: 'accepted', answers: [] });
    for (let i = 0; i < HISTORY_KEPT + 5; i++) history.add(entry(i));
    assert.equal(history.entries.length, HISTORY_KEPT);
    assert.equal(history.entries[0].id, `r${HISTORY_KEPT + 4}`);
    assert.equal(history.entries.at(-1)!.id, 'r5');
  });

  it('gives the questions of the call the person ran its result, clipped, and no other entry', () => {
    const history = new History();
    const entry = (id: string, askedAt: number, source: HistoryEntry['source']): HistoryEntry => ({ id, source, mode: 'form', message: id, askedAt, endedAt: askedAt, outcome: 'accepted', answers: [] });
    const mine = { server: 'fixture', tool: 'book_restaurant', personStarted: true };
    history.add(entry('an earlier call', 10, mine));
    history.add(entry('an agent\'s call', 25, { server: 'fixture', tool: 'book_restaurant', agent: 'Codex' }));
    history.add(entry('another tool', 26, { ...mine, tool: 'echo' }));
    history.add(entry('this call', 30, mine));
    history.add(entry('this call, again', 31, mine));
    assert.equal(history.attachResult({ server: 'fixture', tool: 'book_restaurant', since: 20 }, 'x'.repeat(5000)), 2);
    assert.match(history.find('this call')!.result!, /^x{4000}… \(1000 more characters\)$/);
    assert.ok(history.find('this call, again')!.result);
    for (const other of ['an earlier call', "an agent's call", 'another tool']) assert.equal(history.find(other)!.result, undefined, other);
    // An agent's call (through the gateway) gets its own result, by the agent's name.
    assert.equal(history.attachResult({ server: 'fixture', tool: 'book_restaurant', agent: 'Codex', since: 20 }, 'theirs'), 1);
    assert.equal(history.find("an agent's call")!.result, 'theirs');
    // A result given as a function is formatted only when an entry takes it, and once.
    let formatted = 0;
    const format = (): string => (formatted++, 'formatted');
    assert.equal(history.attachResult({ server: 'elsewhere', tool: 'book_restaurant', since: 0 }, format), 0);
    assert.equal(formatted, 0);
    history.add(entry('two questions, one call', 40, mine));
    history.add(entry('two questions, one call (2)', 41, mine));
    assert.equal(history.attachResult({ server: 'fixture', tool: 'book_restaurant', since: 40 }, format), 2);
    assert.equal(formatted, 1);
    assert.equal(history.find('two questions, one call')!.result, 'formatted');
  });

  it('reads back from storage only what is shaped like an entry', () => {
    const good: HistoryEntry = { id: 'a', source: { server: 's', tool: 't' }, mode: 'url', message: 'Open it', url: 'https://example.com/x', askedAt: 1, endedAt: 2, outcome: 'accepted', answers: [] };
    assert.deepEqual(restoreHistory([good, { ...good, outcome: 'exploded' }, { ...good, answers: [{ question: 1 }] }, 'junk', null]), [good]);
    assert.deepEqual(restoreHistory({ not: 'a list' }), []);
    assert.deepEqual(restoreHistory(undefined), []);
  });
});
