import { strict as assert } from 'node:assert';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import { choosePresentation, type InputRequest } from '../../src/elicitation/request';
import type { InputQuestion } from '../../elicitation-host';
import { askLive } from '../../src/elicitation/live-ask';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import { BOOK_RESTAURANT, COLLECT_FEEDBACK, CONFIRM_ACTION, EMPTY_CONFIRM, PICK_INSTRUMENTS } from '../fixtures/schemas';
import { cancel, ScriptedPrompter } from '../support/scripted-prompter';

function formRequest(schema: object): InputRequest {
  return {
    id: 'r', mode: 'form', source: { server: 's' }, message: 'm', createdAt: 0,
    questions: parseRequestedSchemaOrThrow(schema).questions,
  };
}

function single(property: object): InputRequest {
  return formRequest({ type: 'object', properties: { x: property } });
}

describe('how to ask', () => {
  const normal = { forceForm: false };

  it('an empty schema is a confirm', () => {
    assert.equal(choosePresentation(formRequest(EMPTY_CONFIRM), normal), 'confirm');
  });

  it('one boolean or one single-select (every spelling) is a pick', () => {
    assert.equal(choosePresentation(formRequest(CONFIRM_ACTION), normal), 'pick');
    assert.equal(choosePresentation(single({ type: 'string', enum: ['a', 'b'] }), normal), 'pick');
    assert.equal(choosePresentation(single({ type: 'string', enum: ['a'], enumNames: ['A'] }), normal), 'pick');
    assert.equal(choosePresentation(single({ type: 'string', oneOf: [{ const: 'a', title: 'A' }] }), normal), 'pick');
  });

  it('one multi-select is a pick-many', () => {
    assert.equal(choosePresentation(formRequest(PICK_INSTRUMENTS), normal), 'pick-many');
  });

  it('one string, number or integer is an input (Tesseron\'s single "response" too)', () => {
    for (const type of ['string', 'number', 'integer']) {
      assert.equal(choosePresentation(single({ type }), normal), 'input');
    }
    const tesseron = formRequest({
      type: 'object', properties: { response: { type: 'string', description: 'Your response' } }, required: ['response'],
    });
    assert.equal(choosePresentation(tesseron, normal), 'input');
  });

  it('several fields are a form', () => {
    assert.equal(choosePresentation(formRequest(BOOK_RESTAURANT), normal), 'form');
    assert.equal(choosePresentation(formRequest(COLLECT_FEEDBACK), normal), 'form');
  });

  it('a pair the request names (a select, then the text question holding its own answer) is one pick with "Other…"; a schema alone never pairs', () => {
    const schema = { type: 'object', properties: { room: { type: 'string', enum: ['sea', 'court'] }, 'room (own answer)': { type: 'string' } } };
    const paired = (request: InputRequest): InputRequest => ({ ...request, ownAnswers: [{ selectId: 'room', ownId: 'room (own answer)', required: false }] }) as InputRequest;
    assert.equal(choosePresentation(paired(formRequest(schema)), normal), 'pick-other');
    const many = { type: 'object', properties: { room: { type: 'array', items: { enum: ['sea', 'court'] } }, 'room (own answer)': { type: 'string' } } };
    assert.equal(choosePresentation(paired(formRequest(many)), normal), 'pick-many-other');
    // The same two fields from a server are two questions: a form.
    assert.equal(choosePresentation(formRequest(schema), normal), 'form');
    assert.equal(choosePresentation(paired(formRequest(schema)), { forceForm: true }), 'form', 'the setting still forces the form');
  });

  describe('a live request (the extension API, the agent host inbox)', () => {
    /** The presentation the broker chose for this request, as the prompter was asked. */
    async function presentationOf(questions: readonly InputQuestion[]): Promise<string> {
      const store = new InputStore();
      const prompter = new ScriptedPrompter([cancel]);
      const broker = createBroker({ store, prompter, forceForm: () => false });
      const live = askLive({ broker, store }, { message: 'Your stay', questions }, { source: { server: 'Acme', requester: 'extension' }, signal: new AbortController().signal, applyDefaults: false, origin: 'asker' });
      assert.equal((await live.completion).response, 'cancel');
      return prompter.asked[0].options.presentation;
    }
    const options = [{ id: 'sea', label: 'Sea view' }, { id: 'court', label: 'Courtyard' }];

    it('its only question, a select with allowFreeformInput, is a pick with "Other…" (a multi-select\'s too), required or not', async () => {
      assert.equal(await presentationOf([{ id: 'room', kind: 'single-select', allowFreeformInput: true, options }]), 'pick-other');
      assert.equal(await presentationOf([{ id: 'room', kind: 'single-select', required: true, allowFreeformInput: true, options }]), 'pick-other');
      assert.equal(await presentationOf([{ id: 'extras', kind: 'multi-select', allowFreeformInput: true, options }]), 'pick-many-other');
    });

    it('without allowFreeformInput it is the plain pick; beside another question it is a form', async () => {
      assert.equal(await presentationOf([{ id: 'room', kind: 'single-select', options }]), 'pick');
      assert.equal(await presentationOf([{ id: 'room', kind: 'single-select', allowFreeformInput: false, options }]), 'pick');
      assert.equal(await presentationOf([{ id: 'extras', kind: 'multi-select', options }]), 'pick-many');
      assert.equal(await presentationOf([{ id: 'room', kind: 'single-select', allowFreeformInput: true, options }, { id: 'city', kind: 'text' }]), 'form');
      assert.equal(await presentationOf([{ id: 'city', kind: 'text' }, { id: 'room', kind: 'single-select', allowFreeformInput: true, options }]), 'form');
    });
  });

  it('url mode is a url prompt, whatever the setting', () => {
    const url: InputRequest = { id: 'u', mode: 'url', source: { server: 's' }, message: 'm', url: 'https://x', questions: [], createdAt: 0 };
    assert.equal(choosePresentation(url, normal), 'url');
    assert.equal(choosePresentation(url, { forceForm: true }), 'url');
  });

  it('the setting forces the form for everything else', () => {
    for (const schema of [EMPTY_CONFIRM, CONFIRM_ACTION, PICK_INSTRUMENTS, BOOK_RESTAURANT]) {
      assert.equal(choosePresentation(formRequest(schema), { forceForm: true }), 'form');
    }
  });
});
