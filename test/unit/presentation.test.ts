import { strict as assert } from 'node:assert';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import { choosePresentation, type InputRequest } from '../../src/elicitation/request';
import { BOOK_RESTAURANT, COLLECT_FEEDBACK, CONFIRM_ACTION, EMPTY_CONFIRM, PICK_INSTRUMENTS } from '../fixtures/schemas';

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
