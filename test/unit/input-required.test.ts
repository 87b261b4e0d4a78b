import { strict as assert } from 'node:assert';
import { draftAsSchema, recognizeInputRequired, retryParams } from '../../src/elicitation/input-required';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';

describe('input-required results (SEP-2322)', () => {
  const spec = {
    resultType: 'input_required',
    inputRequests: {
      github_login: { method: 'elicitation/create', params: { mode: 'form', message: 'Login?', requestedSchema: { type: 'object', properties: {} } } },
      workspace: { method: 'roots/list', params: {} },
      llm: { method: 'sampling/createMessage', params: {} },
      odd: { method: 'tasks/get' },
    },
    requestState: 'opaque-token',
  };

  it('recognises the specification\'s shape, every kind of request', () => {
    const recognized = recognizeInputRequired(spec);
    assert.ok(recognized?.shape === 'spec');
    assert.deepEqual(recognized.requests.map((r) => [r.key, r.method]), [
      ['github_login', 'elicitation/create'], ['workspace', 'roots/list'], ['llm', 'sampling/createMessage'], ['odd', 'unsupported'],
    ]);
    assert.equal(recognized.requestState, 'opaque-token');
  });

  it('recognises the earlier draft\'s shape, with required defaulting to true', () => {
    const recognized = recognizeInputRequired({
      inputRequests: [{ id: 'city', kind: 'string', description: 'What city?' }, { id: 'days', kind: 'integer', description: 'Days?', required: false }],
      requestState: 'opaque-token-abc-123',
      description: 'Need the city.',
    });
    assert.deepEqual(recognized, {
      shape: 'draft',
      requests: [
        { id: 'city', kind: 'string', description: 'What city?', required: true },
        { id: 'days', kind: 'integer', description: 'Days?', required: false },
      ],
      requestState: 'opaque-token-abc-123',
      description: 'Need the city.',
    });
  });

  it('half-shaped results are ordinary results (a broken server cannot make us loop)', () => {
    for (const result of [
      { content: [] },
      { resultType: 'complete', inputRequests: spec.inputRequests },
      { resultType: 'input_required', inputRequests: {} },
      { resultType: 'input_required' },
      { resultType: 'input_required', inputRequests: spec.inputRequests, requestState: 5 },
      { inputRequests: [{ id: 'x', kind: 'string' }] },
      { inputRequests: [{ id: 'x', kind: 'string' }], requestState: '' },
      { inputRequests: [], requestState: 's' },
      { inputRequests: [{ kind: 'string' }], requestState: 's' },
      null,
      'text',
    ]) {
      assert.equal(recognizeInputRequired(result), undefined, JSON.stringify(result));
    }
  });

  it('the retry keeps the original params and echoes requestState exactly, and only when it was sent', () => {
    const original = { name: 'deploy', arguments: { env: 'prod' } };
    const recognized = recognizeInputRequired(spec)!;
    assert.deepEqual(retryParams(original, recognized, { github_login: { action: 'accept', content: {} } }), {
      name: 'deploy',
      arguments: { env: 'prod' },
      inputResponses: { github_login: { action: 'accept', content: {} } },
      requestState: 'opaque-token',
    });
    const stateless = recognizeInputRequired({ ...spec, requestState: undefined })!;
    assert.equal('requestState' in retryParams(original, stateless, {}), false, 'never invented');
    assert.deepEqual(original, { name: 'deploy', arguments: { env: 'prod' } }, 'the original is untouched');
  });

  it('the draft\'s retry sends [{id, value}] and its token', () => {
    const draft = recognizeInputRequired({ inputRequests: [{ id: 'city', kind: 'string', description: 'City?' }], requestState: 't' })!;
    assert.deepEqual(retryParams({ name: 'weather', arguments: { loc: 'SFO' } }, draft, { city: 'San Francisco' }), {
      name: 'weather', arguments: { loc: 'SFO' }, inputResponses: [{ id: 'city', value: 'San Francisco' }], requestState: 't',
    });
  });

  it('a draft round becomes one form: field = request id, kind and required carried over', () => {
    const schema = draftAsSchema([
      { id: 'city', kind: 'string', description: 'What city?', required: true },
      { id: 'days', kind: 'integer', description: 'How many days?', required: false },
      { id: 'odd', kind: 'color', description: 'Unknown kinds are text', required: false },
    ]);
    const questions = parseRequestedSchemaOrThrow(schema).questions;
    assert.deepEqual(questions.map((q) => [q.id, q.kind, q.required, q.description]), [
      ['city', 'text', true, 'What city?'], ['days', 'integer', false, 'How many days?'], ['odd', 'text', false, 'Unknown kinds are text'],
    ]);
  });
});
