/**
 * The API other extensions get (version 1, elicitation-host.d.ts): questions asked in the
 * calling extension's own name, shown as an extension whatever name it gives; confirm,
 * elicit and the Agent Host Protocol's live requests through the real broker and store;
 * nothing mutable handed out.
 */
import { strict as assert } from 'node:assert';
import type { CancellationToken } from 'vscode';
import type { InputAnswer, InputAnswerChange } from '../../elicitation-host';
import { createApi, ElicitationRequestError, extensionName, type InstalledExtension, REQUESTER_FITS, requesterName } from '../../src/api';
import { fromLiveAnswer, RequestAnswers, toElicitParams, toLiveAnswer } from '../../src/elicitation/live-request';
import { joinOwnAnswer, ownAnswerMissing, splitOwnAnswer } from '../../src/elicitation/freeform';
import type { Step } from '../support/scripted-prompter';
import type { Outcome } from '../../src/elicitation/broker';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import type { ServerManager } from '../../src/mcp/servers/manager';
import { ToolConsents } from '../../src/mcp/tool-consent';
import { accept, cancel, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';

/** The extensions installed, as VS Code's lookup finds them (without case). */
const INSTALLED: readonly InstalledExtension[] = [
  { id: 'acme.agent', displayName: 'Acme Agent', name: 'agent' },
  { id: 'acme.fixture', name: 'fixture' },
  { id: 'acme.sneaky', displayName: '$(zap) Sneaky\u202E\u200B  one\n', name: 'sneaky' },
  { id: 'acme.blank', displayName: '\u200B ', name: 'blank' },
];
const installedExtension = (id: string): InstalledExtension | undefined => INSTALLED.find((e) => e.id.toLowerCase() === id.toLowerCase());

function setup(prompter: ScriptedPrompter) {
  const store = new InputStore();
  const broker = createBroker({ store, prompter, forceForm: () => false });
  // The questions never reach the server manager or the consents: only servers() and callTool() use them
  // (test/integration/api-tool-calls.test.ts calls tools through real servers).
  const never = { askToAllow: () => Promise.reject(new Error('not asked here')), confirmCall: () => Promise.reject(new Error('not asked here')) };
  const consents = new ToolConsents({ get: (_key, fallback) => fallback, update: async () => undefined }, never);
  const api = createApi({ broker, store, manager: {} as ServerManager, applyDefaults: () => false, installedExtension, consents });
  return { api, store, ext: api.forExtension('acme.agent') };
}

/** A token the test cancels, shaped as VS Code's. */
function token(): { token: CancellationToken; cancel(): void } {
  const listeners: Array<() => void> = [];
  const t = { isCancellationRequested: false, onCancellationRequested: (l: () => void) => (listeners.push(l), { dispose: () => undefined }) } as unknown as CancellationToken;
  return { token: t, cancel: () => ((t as { isCancellationRequested: boolean }).isCancellationRequested = true, listeners.forEach((l) => l())) };
}

const QUESTIONS = [
  { id: 'city', kind: 'text', title: 'City', required: true },
  { id: 'nights', kind: 'integer', title: 'Nights', minimum: 1, maximum: 30 },
  { id: 'pets', kind: 'boolean', title: 'Pets' },
  { id: 'room', kind: 'single-select', title: 'Room', options: [{ id: 'single', label: 'Single' }, { id: 'double', label: 'Double' }] },
  { id: 'extras', kind: 'multi-select', title: 'Extras', options: [{ id: 'breakfast', label: 'Breakfast' }, { id: 'parking', label: 'Parking' }] },
] as const;

describe('the extension API', () => {
  it('hands out version 1: forExtension, servers and callTool; an asker has confirm, elicit, requestInput and callTool; no store', () => {
    const { api, ext } = setup(new ScriptedPrompter());
    assert.equal(api.version, 1);
    assert.deepEqual(Object.keys(api).sort(), ['callTool', 'forExtension', 'servers', 'version']);
    assert.deepEqual(Object.keys(ext).sort(), ['callTool', 'confirm', 'elicit', 'requestInput']);
  });

  it("a question is asked as from the extension (its display name from its manifest), even under a configured server's name", async () => {
    const prompter = new ScriptedPrompter([accept(), accept()]);
    const { api, ext } = setup(prompter);
    assert.equal(await ext.confirm({ question: 'Proceed?' }), true);
    assert.deepEqual(prompter.asked[0].request.source, { server: 'Acme Agent', requester: 'extension' });
    // An extension without a display name is shown by its manifest name, still as an extension.
    await api.forExtension('ACME.Fixture').confirm({ question: 'Proceed?' });
    assert.deepEqual(prompter.asked[1].request.source, { server: 'fixture', requester: 'extension' });
  });

  it('forExtension takes only the id of an installed extension: any other text is refused (-32602), not shown as the asker', () => {
    const { api } = setup(new ScriptedPrompter());
    for (const made of ['restaurant · book_restaurant, for Claude Code', 'Acme Agent', 'acme.agent2']) {
      assert.throws(() => api.forExtension(made), (e: unknown) => e instanceof ElicitationRequestError && e.code === -32602 && /installed extension/.test(e.message), made);
    }
    assert.throws(() => api.forExtension('\u200B '), /needs the id/);
    assert.throws(() => api.forExtension(undefined as never), /needs the id/);
  });

  it('the name shown is text: invisible characters removed, spaces folded, long names cut; a blank display name falls back to the manifest name', () => {
    assert.equal(requesterName(' My\u202E\u200B  Extension\n'), 'My Extension');
    assert.equal(requesterName('x'.repeat(200)).length, REQUESTER_FITS);
    assert.equal(extensionName(installedExtension('acme.sneaky')!), '$(zap) Sneaky one', 'icons are escaped by each surface that draws them');
    assert.equal(extensionName(installedExtension('acme.blank')!), 'blank');
    assert.equal(extensionName({ id: 'acme.bare' }), 'acme.bare');
  });

  it('the API-wide callTool is refused: a tool call needs the calling extension, asked for by the person', async () => {
    const { api } = setup(new ScriptedPrompter());
    await assert.rejects(api.callTool('fixture', 'echo', {}), (e: unknown) => e instanceof ElicitationRequestError && e.code === -32602 && /forExtension\(context\.extension\.id\)\.callTool/.test(e.message));
  });

  it('confirm is true only on an explicit accept; decline, cancel and a withdrawn question are false; destructive takes the modal', async () => {
    const prompter = new ScriptedPrompter([decline, cancel, accept(), waitForAbort]);
    const { ext } = setup(prompter);
    assert.equal(await ext.confirm({ question: 'Delete?' }), false);
    assert.equal(await ext.confirm({ question: 'Delete?' }), false);
    assert.equal(await ext.confirm({ question: 'Delete these 5 files?', destructive: true }), true);
    assert.deepEqual(prompter.asked[2].request.source, { server: 'Acme Agent', requester: 'extension', destructive: true, personStarted: true });
    assert.equal(prompter.asked[2].options.presentation, 'confirm');
    const t = token();
    const asked = ext.confirm({ question: 'Still there?', token: t.token });
    t.cancel();
    assert.equal(await asked, false);
    assert.equal(prompter.asked[3].options.signal.aborted, true, 'the prompt closes');
  });

  it('elicit has the MCP semantics, and a bad schema throws a typed -32602 naming the field', async () => {
    const { ext } = setup(new ScriptedPrompter([accept({ city: 'Porto' })]));
    assert.deepEqual(await ext.elicit({ message: 'Where?', requestedSchema: { type: 'object', properties: { city: { type: 'string' } } } }), { action: 'accept', content: { city: 'Porto' } });
    await assert.rejects(ext.elicit({ message: 'Where?', requestedSchema: { type: 'object', properties: { address: { type: 'object' } } } }), (e: unknown) =>
      e instanceof ElicitationRequestError && e.name === 'ElicitationRequestError' && e.code === -32602 && /properties\.address/.test(e.message));
  });

  it('requestInput: starts from the given answers, reports every change (the person typing, the caller updating), and completes with the answers', async () => {
    let typed: () => void = () => undefined;
    const person: Step = (request) =>
      new Promise((resolve) => {
        typed = () => resolve(accept({ city: 'Porto', nights: 3, room: 'double', extras: ['parking'] })(request, undefined as never) as never);
      });
    const { ext, store } = setup(new ScriptedPrompter([person]));
    const handle = ext.requestInput({ message: 'Your stay', questions: QUESTIONS, answers: { city: { state: 'draft', value: { kind: 'text', value: 'Lis' } } } });
    const changes: InputAnswerChange[] = [];
    handle.onDidChangeAnswer((c) => changes.push(c));
    const open = store.state.requests.find((r) => r.status === 'open')!;
    assert.deepEqual(open.answers.city, { state: 'draft', value: { kind: 'text', value: 'Lis' } }, 'the given answer is the draft the prompts show');
    // The person types in the form (the store's draft), the caller updates another draft.
    store.dispatch({ type: 'answerChanged', origin: 'page', requestId: open.request.id, questionId: 'city', answer: { state: 'draft', value: { kind: 'text', value: 'Lisbon' } } });
    assert.deepEqual(handle.updateDraft('pets', { state: 'draft', value: { kind: 'boolean', value: true } }), { ok: true });
    assert.equal(handle.updateDraft('pets', { state: 'draft', value: { kind: 'text', value: 'yes' } }).ok, false, 'a value of the wrong kind is refused');
    assert.equal(handle.updateDraft('nowhere', { state: 'skipped' }).ok, false, 'an unknown question is refused');
    assert.deepEqual(changes, [
      { questionId: 'city', answer: { state: 'draft', value: { kind: 'text', value: 'Lisbon' } } },
      { questionId: 'pets', answer: { state: 'draft', value: { kind: 'boolean', value: true } } },
    ]);
    typed();
    const done = await handle.completion;
    assert.equal(done.response, 'accept');
    assert.deepEqual(done.answers.city, { state: 'submitted', value: { kind: 'text', value: 'Porto' } });
    assert.deepEqual(done.answers.extras, { state: 'submitted', value: { kind: 'selected-many', value: ['parking'] } });
  });

  it('requestInput with an own answer: the caller\'s freeformValues are the drafts, changes come as one answer, a required one answered neither way is asked again', async () => {
    const prompter: ScriptedPrompter = new ScriptedPrompter([
      () => ({ action: 'accept', answers: {} }),
      (request): Outcome => {
        assert.deepEqual(prompter.asked[1].options.errors, [{ questionId: 'room', message: 'Choose an option, or type your own answer below.' }]);
        return accept({ 'room (own answer)': 'attic', extras: ['wifi'], 'extras (own answer)': 'cot' })(request, undefined as never) as Outcome;
      },
    ]);
    const { ext, store } = setup(prompter);
    const handle = ext.requestInput({
      message: 'Your stay',
      questions: [
        { id: 'room', kind: 'single-select', required: true, allowFreeformInput: true, options: [{ id: 'sea', label: 'Sea view' }] },
        { id: 'extras', kind: 'multi-select', allowFreeformInput: true, options: [{ id: 'wifi', label: 'Wi-Fi' }] },
      ],
      answers: { extras: { state: 'draft', value: { kind: 'selected-many', value: [], freeformValues: ['crib'] } } },
    });
    const changes: InputAnswerChange[] = [];
    handle.onDidChangeAnswer((c) => changes.push(c));
    const open = store.state.requests.find((r) => r.status === 'open')!;
    assert.deepEqual(open.answers['extras (own answer)'], { state: 'draft', value: { kind: 'text', value: 'crib' } });
    store.dispatch({ type: 'answerChanged', origin: 'page', requestId: open.request.id, questionId: 'room (own answer)', answer: { state: 'draft', value: { kind: 'text', value: 'att' } } });
    assert.deepEqual(changes, [{ questionId: 'room', answer: { state: 'draft', value: { kind: 'text', value: 'att' } } }], 'the own answer reports as the question\'s');
    const done = await handle.completion;
    assert.equal(done.response, 'accept');
    assert.deepEqual(done.answers, {
      room: { state: 'submitted', value: { kind: 'text', value: 'attic' } },
      extras: { state: 'submitted', value: { kind: 'selected-many', value: ['wifi'], freeformValues: ['cot'] } },
    });
  });

  it('requestInput: a question that asks for a secret is the person\'s alone: no draft of it is told, none is taken, and its answer comes only with Accept', async () => {
    let release: (outcome: Outcome) => void = () => undefined;
    const waits: Step = () => new Promise<Outcome>((resolve) => (release = resolve));
    const prompter = new ScriptedPrompter([waits, waits]);
    const { ext, store } = setup(prompter);
    const questions = [{ id: 'apiKey', kind: 'text', title: 'API key' }, { id: 'city', kind: 'text', title: 'City' }] as const;
    const typeIn = (requestId: string): void => {
      store.dispatch({ type: 'answerChanged', origin: 'page', requestId, questionId: 'apiKey', answer: { state: 'draft', value: { kind: 'text', value: 'sk-live-1234' } } });
      store.dispatch({ type: 'answerChanged', origin: 'page', requestId, questionId: 'city', answer: { state: 'draft', value: { kind: 'text', value: 'Lisbon' } } });
    };
    // Declined: what was typed for the key never reaches the extension.
    const first = ext.requestInput({ message: 'Sign in', questions, answers: { apiKey: { state: 'draft', value: { kind: 'text', value: 'planted' } } } });
    const changes: InputAnswerChange[] = [];
    first.onDidChangeAnswer((c) => changes.push(c));
    const open = store.state.requests.find((r) => r.status === 'open')!;
    assert.equal(open.answers.apiKey, undefined, 'a starting answer for the secret is not put in the masked field');
    const refused = first.updateDraft('apiKey', { state: 'draft', value: { kind: 'text', value: 'planted' } });
    assert.ok(!refused.ok && /secret/.test(refused.reason), 'updateDraft of the secret is refused, saying why');
    typeIn(open.request.id);
    assert.deepEqual(changes, [{ questionId: 'city', answer: { state: 'draft', value: { kind: 'text', value: 'Lisbon' } } }], 'only the city is told');
    release({ action: 'decline' });
    assert.deepEqual(await first.completion, { response: 'decline', answers: { city: { state: 'draft', value: { kind: 'text', value: 'Lisbon' } } } });
    // Accepted: the key goes with the answers, and only then.
    const second = ext.requestInput({ message: 'Sign in', questions });
    const later: InputAnswerChange[] = [];
    second.onDidChangeAnswer((c) => later.push(c));
    const again = store.state.requests.find((r) => r.status === 'open')!;
    typeIn(again.request.id);
    assert.deepEqual(later.map((c) => c.questionId), ['city']);
    release(accept({ apiKey: 'sk-live-1234', city: 'Lisbon' })(again.request, prompter.asked[1].options) as Outcome);
    const done = await second.completion;
    assert.equal(done.response, 'accept');
    assert.deepEqual(done.answers.apiKey, { state: 'submitted', value: { kind: 'text', value: 'sk-live-1234' } });
  });

  it('requestInput: abandon or the token withdraws it (cancel); a malformed request is refused naming the field', async () => {
    const prompter = new ScriptedPrompter([waitForAbort, waitForAbort]);
    const { ext } = setup(prompter);
    const handle = ext.requestInput({ message: 'Wait', questions: [{ id: 'a', kind: 'text' }] });
    handle.abandon();
    assert.equal((await handle.completion).response, 'cancel');
    assert.equal(prompter.asked[0].options.signal.aborted, true);
    const t = token();
    const second = ext.requestInput({ message: 'Wait', questions: [{ id: 'a', kind: 'text' }] }, { token: t.token });
    t.cancel();
    assert.equal((await second.completion).response, 'cancel');
    await assert.rejects(ext.requestInput({ message: 'x', questions: [{ id: 'a', kind: 'colour' } as never] }).completion, (e: unknown) => e instanceof ElicitationRequestError && e.code === -32602 && /questions\[0\]\.kind/.test(e.message));
    await assert.rejects(ext.requestInput({ message: 'x', questions: [{ id: 'a', kind: 'text' }], answers: { a: { state: 'draft', value: { kind: 'number', value: 1 } } } }).completion, /answers\.a/);
  });
});

describe('Agent Host Protocol answers and questions, both ways', () => {
  const answers: InputAnswer[] = [
    { state: 'draft', value: { kind: 'text', value: 'Porto' } },
    { state: 'submitted', value: { kind: 'number', value: 2.5 } },
    { state: 'submitted', value: { kind: 'boolean', value: false } },
    { state: 'draft', value: { kind: 'selected', value: 'double' } },
    { state: 'submitted', value: { kind: 'selected-many', value: ['a', 'b'] } },
    { state: 'skipped' },
  ];

  it('every answer shape goes in and comes back unchanged, as a copy', () => {
    for (const answer of answers) {
      const ours = fromLiveAnswer(answer);
      assert.deepEqual(ours, answer);
      const back = toLiveAnswer(ours);
      assert.deepEqual(back, answer);
      if ('value' in back && back.value.kind === 'selected-many' && 'value' in ours) assert.notEqual(back.value.value, (ours.value as { value: unknown }).value, 'not our array');
    }
  });

  it('refuses answers that do not fit, naming the field', () => {
    assert.throws(() => fromLiveAnswer({ state: 'maybe' }), /answer\.state/);
    assert.throws(() => fromLiveAnswer({ state: 'draft' }), /answer\.value/);
    assert.throws(() => fromLiveAnswer({ state: 'draft', value: { kind: 'number', value: '3' } }), /answer\.value\.value: does not fit the kind number/);
    assert.throws(() => fromLiveAnswer({ state: 'draft', value: { kind: 'selected-many', value: ['a', 1] } }), /does not fit/);
  });

  it('questions become the flat schema the broker parses: the same ids, kinds, options and required ones', () => {
    const { params } = toElicitParams({ message: 'Your stay', questions: QUESTIONS });
    assert.ok(!('mode' in params));
    const parsed = parseRequestedSchemaOrThrow(params.requestedSchema).questions;
    assert.deepEqual(parsed.map((q) => [q.id, q.kind, q.required]), [['city', 'text', true], ['nights', 'integer', false], ['pets', 'boolean', false], ['room', 'single-select', false], ['extras', 'multi-select', false]]);
    const room = parsed.find((q) => q.id === 'room');
    assert.ok(room?.kind === 'single-select');
    assert.deepEqual(room.options.map((o) => [o.value, o.label]), [['single', 'Single'], ['double', 'Double']]);
    assert.deepEqual(toElicitParams({ message: 'Review', url: 'https://example.com/r/1' }).params, { mode: 'url', message: 'Review', url: 'https://example.com/r/1' });
    assert.throws(() => toElicitParams({ message: 'x', questions: [{ id: 'a', kind: 'text' }, { id: 'a', kind: 'text' }] }), /questions\[1\]\.id: "a" is used twice/);
  });

  it('a select with allowFreeformInput gets a text question for the own answer right after it; a required one is required of neither', () => {
    const { params, own } = toElicitParams({
      message: 'Your stay',
      questions: [
        { id: 'room', kind: 'single-select', title: 'Room', required: true, allowFreeformInput: true, options: [{ id: 'sea', label: 'Sea view' }] },
        { id: 'city', kind: 'text', required: true },
      ],
    });
    assert.ok(!('mode' in params));
    const parsed = parseRequestedSchemaOrThrow(params.requestedSchema).questions;
    assert.deepEqual(parsed.map((q) => [q.id, q.kind, q.required, q.title]), [['room', 'single-select', false, 'Room'], ['room (own answer)', 'text', false, 'Room: your own answer'], ['city', 'text', true, 'city']]);
    assert.deepEqual([...own], [['room', { id: 'room (own answer)', multi: false, required: true }]]);
    assert.equal(parsed[0].description, 'Required: choose one, or type your own answer below.', 'the form says in words what the schema cannot');
    assert.throws(() => toElicitParams({ message: 'x', questions: [{ id: 'a', kind: 'text', allowFreeformInput: true } as never] }), /questions\[0\]\.allowFreeformInput/);
    assert.throws(() => toElicitParams({ message: 'x', questions: [{ id: 'a', kind: 'single-select', allowFreeformInput: true, options: [{ id: 'o', label: 'O' }] }, { id: 'a (own answer)', kind: 'text' }] }), /questions\[1\]\.id: "a \(own answer\)" is used twice/);
  });

  it('the own answer and the options are the protocol\'s one answer, both ways: chosen + typed, typed alone, chosen alone', () => {
    const single = { id: 'room (own answer)', multi: false, required: true };
    const multi = { id: 'extras (own answer)', multi: true, required: false };
    const text = (value: string) => ({ state: 'submitted' as const, value: { kind: 'text' as const, value } });
    const both: InputAnswer = { state: 'submitted', value: { kind: 'selected', value: 'sea', freeformValues: ['high floor'] } };
    assert.deepEqual(splitOwnAnswer(both), [{ state: 'submitted', value: { kind: 'selected', value: 'sea' } }, text('high floor')]);
    assert.deepEqual(joinOwnAnswer(single, ...splitOwnAnswer(both)), both);
    assert.deepEqual(joinOwnAnswer(single, undefined, text(' attic ')), { state: 'submitted', value: { kind: 'text', value: 'attic' } }, 'typed alone: a text answer');
    assert.deepEqual(splitOwnAnswer({ state: 'draft', value: { kind: 'text', value: 'attic' } }), [undefined, { state: 'draft', value: { kind: 'text', value: 'attic' } }]);
    assert.deepEqual(joinOwnAnswer(multi, { state: 'submitted', value: { kind: 'selected-many', value: ['wifi'] } }, text('late checkout, , cot')), { state: 'submitted', value: { kind: 'selected-many', value: ['wifi'], freeformValues: ['late checkout', 'cot'] } });
    assert.deepEqual(joinOwnAnswer(multi, undefined, text('cot')), { state: 'submitted', value: { kind: 'selected-many', value: [], freeformValues: ['cot'] } });
    assert.deepEqual(joinOwnAnswer(single, { state: 'draft', value: { kind: 'selected', value: 'sea' } }, text('x')), { state: 'draft', value: { kind: 'selected', value: 'sea', freeformValues: ['x'] } }, 'a draft while either is');
    assert.equal(joinOwnAnswer(single, undefined, text('  ')), undefined);
    assert.deepEqual(joinOwnAnswer(single, { state: 'skipped' }, undefined), { state: 'skipped' });
    assert.equal(ownAnswerMissing(single, undefined, text(' ')), true);
    assert.equal(ownAnswerMissing(single, undefined, text('attic')), false);
    assert.equal(ownAnswerMissing(multi, undefined, undefined), false, 'not required');
  });

  it('freeformValues on a question that takes none is refused, naming the field', () => {
    const answers = new RequestAnswers(new Map());
    assert.throws(() => answers.toStore('room', { state: 'draft', value: { kind: 'selected', value: 'sea', freeformValues: ['x'] } }, 'answers.room'), /answers\.room\.value\.freeformValues: the question does not take/);
    assert.throws(() => fromLiveAnswer({ state: 'draft', value: { kind: 'selected', value: 'sea', freeformValues: [1] } }), /answer\.value\.freeformValues: must be a list of strings/);
  });
});
