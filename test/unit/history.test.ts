/**
 * The history: one entry per finished request, built from the store through the real
 * broker; how each ended, in words; secrets masked before anything is kept; bounded; read
 * back from storage only when shaped like entries; the result of the person's own call.
 */
import { strict as assert } from 'node:assert';
import type { ElicitContext } from '../../src/elicitation/broker';
import { History, HISTORY_KEPT, type HistoryEntry, outcomeOf, RESULT_KEPT_CHARS, restoreHistory } from '../../src/elicitation/history';
import { historyText } from '../../src/elicitation/history-text';
import { MASKED } from '../../src/elicitation/shown-answer';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import { describeServerAbort } from '../../src/mcp/errors';
import { BOOK_RESTAURANT, EMPTY_CONFIRM } from '../fixtures/schemas';
import { accept, cancel, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { permissionQuestion as acpQuestion } from '../../src/acp/permission';
import { toolQuestion } from '../../src/ahp/tool-confirmation';
import { permissionQuestion as hookQuestion } from '../../src/gateway/permission-question';

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

  it("a background task's question is kept as one (every surface heads it \"tool (background task)\")", async () => {
    const { broker, history } = setup(new ScriptedPrompter([decline]));
    await broker.elicit({ message: 'Which one?', requestedSchema: EMPTY_CONFIRM }, ctx({ source: { server: 'everything', tool: 'Research', background: true } }));
    assert.deepEqual(history.entries[0].source, { server: 'everything', tool: 'Research', background: true });
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

  it('a writeOnly answer and the widened hints (one-time code, recovery phrase, live key) are masked like a password', async () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', title: 'One-time code' },
        words: { type: 'string', title: 'Recovery phrase' },
        stripe: { type: 'string', title: 'Stripe live key' },
        answer: { type: 'string', title: 'Answer', writeOnly: true },
      },
    };
    const values = { code: '493817', words: 'correct horse battery staple', stripe: 'sk_live_51Habc', answer: 'blue-heron-42' };
    const { broker, history } = setup(new ScriptedPrompter([accept(values)]));
    await broker.elicit({ message: 'Sign in', requestedSchema: schema }, ctx());
    const [entry] = history.entries;
    assert.deepEqual(entry.answers.map((a) => a.answer), [MASKED, MASKED, MASKED, MASKED]);
    for (const value of Object.values(values)) assert.ok(!JSON.stringify(entry).includes(value) && !historyText(entry).includes(value), value);
  });

  it("masks a secret answer in the call's result that echoes it (as typed, inside JSON, percent-encoded), in the entry's document and its stored form", async () => {
    const token = 'sk-live "quoted" \\ ünï';
    const { broker, history } = setup(new ScriptedPrompter([accept({ api_token: token, note: 'for CI' })]));
    await broker.elicit({ message: 'Paste your API token', requestedSchema: SECRET }, ctx({ source: { server: 'fixture', tool: 'book_restaurant', personStarted: true } }));
    const echoed = `raw ${token}\njson ${JSON.stringify({ api_token: token })}\nurl https://x.example/?t=${encodeURIComponent(token)}\nnote for CI`;
    assert.equal(history.attachResult({ server: 'fixture', tool: 'book_restaurant', since: 0 }, echoed), 1);
    const [entry] = history.entries;
    const forms = [token, JSON.stringify(token).slice(1, -1), encodeURIComponent(token)];
    const stored = JSON.stringify(restoreHistory(JSON.parse(JSON.stringify(history.entries))));
    for (const text of [entry.result ?? '', JSON.stringify(entry), historyText(entry), stored]) {
      for (const form of forms) assert.ok(!text.includes(form) && !text.includes(JSON.stringify(form).slice(1, -1)), `${form} in ${text}`);
    }
    assert.equal(entry.result, `raw ${MASKED}\njson {"api_token":"${MASKED}"}\nurl https://x.example/?t=${MASKED}\nnote for CI`, 'the rest of the result is kept as it was');
  });

  it('masks a secret answer wherever else the History keeps it: a field that did not look secret, a later question quoting it', async () => {
    const schema = { type: 'object', properties: { api_token: { type: 'string', title: 'API token' }, again: { type: 'string', title: 'Type it again' } } };
    const { broker, history } = setup(new ScriptedPrompter([accept({ api_token: 'tok-8812-ab', again: 'tok-8812-ab' }), decline]));
    await broker.elicit({ message: 'Paste your API token', requestedSchema: schema }, ctx());
    await broker.elicit({ message: 'Really use tok-8812-ab?', requestedSchema: EMPTY_CONFIRM }, ctx());
    const [later, first] = history.entries;
    assert.deepEqual(first.answers, [{ question: 'API token', answer: MASKED }, { question: 'Type it again', answer: MASKED }]);
    assert.equal(later.message, `Really use ${MASKED}?`);
  });

  it('a secret too short to hide inside words is masked where it stands alone, and nowhere inside a longer word or number', async () => {
    const schema = { type: 'object', properties: { cvc: { type: 'string', title: 'CVC' } } };
    const { broker, history } = setup(new ScriptedPrompter([accept({ cvc: '123' })]));
    await broker.elicit({ message: 'Card check', requestedSchema: schema }, ctx({ source: { server: 'fixture', tool: 'pay', personStarted: true } }));
    history.attachResult({ server: 'fixture', tool: 'pay', since: 0 }, '{"cvc":"123","order":"A1234","total":123.5,"note":"code 123"}');
    assert.equal(history.entries[0].result, `{"cvc":"${MASKED}","order":"A1234","total":${MASKED}.5,"note":"code ${MASKED}"}`);
  });

  it('masks before clipping: a secret cut by the clip does not leave its start behind', async () => {
    const { broker, history } = setup(new ScriptedPrompter([accept({ api_token: 'sk-live-0123456789abcdef', note: 'x' })]));
    await broker.elicit({ message: 'Token?', requestedSchema: SECRET }, ctx({ source: { server: 'fixture', tool: 'book_restaurant', personStarted: true } }));
    history.attachResult({ server: 'fixture', tool: 'book_restaurant', since: 0 }, `${'x'.repeat(RESULT_KEPT_CHARS - 8)}sk-live-0123456789abcdef and more`);
    assert.ok(!history.entries[0].result!.includes('sk-live'), history.entries[0].result!.slice(-40));
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

  it("an agent host's question: answered by another client is answered elsewhere, ended by the agent is withdrawn", () => {
    assert.equal(outcomeOf('abandoned', 'answered in another client (accepted)'), 'answered elsewhere');
    assert.equal(outcomeOf('abandoned', "the agent withdrew the question: the agent's turn was cancelled"), 'withdrawn');
    const restored = restoreHistory([{ id: 'h1', source: { server: 'Claude (host)' }, mode: 'form', message: 'm', askedAt: 1, endedAt: 2, outcome: 'answered elsewhere', answers: [] }]);
    assert.equal(restored[0]?.outcome, 'answered elsewhere');
    // The entry's page says how it ended once, not "answered elsewhere (answered in another client (accepted))".
    const elsewhere = { ...restored[0]!, reason: 'answered in another client (accepted)' };
    assert.match(historyText(elsewhere), /^Ended: {2}[^\n]*, answered elsewhere \(accepted\)$/m);
    assert.match(historyText({ ...elsewhere, reason: 'answered in another client' }), /^Ended: {2}[^\n]*, answered elsewhere$/m);
  });

  it("a background task's question: expired is timed out, ended by its server is withdrawn", () => {
    assert.equal(outcomeOf('abandoned', "the task's time to live ran out (2 min) before it was answered"), 'timed out');
    assert.equal(outcomeOf('abandoned', 'everything cancelled the task this question belonged to'), 'withdrawn');
    assert.equal(outcomeOf('abandoned', 'everything no longer asks this question (the task went on without it)'), 'withdrawn');
    assert.equal(outcomeOf('abandoned', 'everything no longer knows the task (Unknown task): it may have expired'), 'withdrawn');
    assert.equal(outcomeOf('abandoned', 'everything disconnected'), 'abandoned');
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

  describe("a permission's entry says what was chosen, whoever asked", () => {
    const options = [
      { optionId: 'once', name: 'Allow', kind: 'allow_once' as const },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' as const },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' as const },
      { optionId: 'never', name: 'Never', kind: 'reject_always' as const },
    ];
    const acp = acpQuestion({ agent: 'gemini', session: 'fix the tests' }, { sessionId: 's', toolCall: { toolCallId: 't', kind: 'execute', title: 'rm -rf build', rawInput: { command: 'rm -rf build' } }, options });

    it('an ACP agent: allowed once, allowed always, refused and refused always by the option chosen; Decline and Escape refused', async () => {
      const { broker, history } = setup(new ScriptedPrompter([accept({ decision: 'once' }), accept({ decision: 'always' }), accept({ decision: 'no' }), accept({ decision: 'never' }), decline, cancel]));
      for (let i = 0; i < 6; i++) await broker.elicit(acp.params, { ...acp.context, signal: new AbortController().signal, applyDefaults: true });
      assert.deepEqual(history.entries.map((e) => e.outcome).reverse(), ['allowed once', 'allowed always', 'refused', 'refused always', 'refused', 'refused']);
      assert.equal(history.entries[0].reason, 'dismissed');
      assert.match(historyText(history.entries[0]), /, refused \(dismissed\)\n/);
      assert.match(historyText(history.entries[3]), /, refused\n[^]*Answers:\n {2}Permission: Reject\n/);
    });

    it("an agent host's Bash refused with its focused Skip reads refused, not accepted; Allow Once and Allow in this Session read allowed", async () => {
      const host = toolQuestion({ agent: 'Claude (my-laptop)', session: 'clean up' }, {
        toolCallId: 'tc',
        status: 'pending-confirmation',
        toolName: 'Bash',
        toolInput: 'rm -rf build',
        confirmationTitle: 'Run in terminal?',
        toolKind: 'terminal',
        options: [{ id: 'allow-session', label: 'Allow in this Session', kind: 'approve' }, { id: 'allow-once', label: 'Allow Once', kind: 'approve' }, { id: 'skip', label: 'Skip', kind: 'deny' }],
      });
      const { broker, history } = setup(new ScriptedPrompter([accept({ decision: 'skip' }), accept({ decision: 'allow-once' }), accept({ decision: 'allow-session' }), cancel]));
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(host.decide(await broker.elicit(host.params, { ...host.context, signal: new AbortController().signal, applyDefaults: true })));
      assert.deepEqual(answers.map((a) => a.approved), [false, true, true, false]);
      assert.deepEqual(history.entries.map((e) => e.outcome).reverse(), ['refused', 'allowed once', 'allowed always', 'refused']);
    });

    it("Claude Code's hook: Allow this time, Allow for this session, Decline; a dismissal there decides nothing (Claude Code asks itself), through the prompt tool it refuses", async () => {
      const request = { toolName: 'Bash', input: { command: 'npm ci' }, suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm ci:*' }], behavior: 'allow' }] };
      const { broker, history } = setup(new ScriptedPrompter([accept({ decision: 'once' }), accept({ decision: 'session' }), decline, cancel, cancel]));
      for (const dismissed of ['undecided', 'undecided', 'undecided', 'undecided', 'deny'] as const) {
        const q = hookQuestion(request, undefined, dismissed);
        await broker.elicit(q.params, { ...q.context, signal: new AbortController().signal, applyDefaults: true });
      }
      assert.deepEqual(history.entries.map((e) => e.outcome).reverse(), ['allowed once', 'allowed always', 'refused', 'cancelled', 'refused']);
    });

    it('read back from storage with the words it was stored with', () => {
      const entry: HistoryEntry = { id: 'p', source: { server: 'gemini', tool: 'rm -rf build', approval: true }, mode: 'form', message: 'm', askedAt: 1, endedAt: 2, outcome: 'refused always', answers: [] };
      assert.deepEqual(restoreHistory([entry]), [entry]);
    });
  });
});
