import { strict as assert } from 'node:assert';
import { parsePageMessage, type PageMessage } from '../../src/shared/protocol';

/** Every message the page may send, well formed. */
const VALID: Record<PageMessage['type'], PageMessage[]> = {
  ready: [{ type: 'ready' }, { type: 'ready', showing: 'r1' }],
  draft: [
    { type: 'draft', requestId: 'r1', questionId: 'q', value: 'typed text' },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: 4 },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: false },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: ['a', 'b'] },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: [] },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: null },
  ],
  submit: [
    { type: 'submit', requestId: 'r1', values: {} },
    { type: 'submit', requestId: 'r1', values: { a: 'x', b: 2.5, c: true, d: ['y'], e: null } },
  ],
  decline: [{ type: 'decline', requestId: 'r1' }],
  cancel: [{ type: 'cancel', requestId: 'r1' }],
  stepByStep: [{ type: 'stepByStep', requestId: 'r1' }],
  shown: [
    { type: 'shown', requestId: 'r1', at: 1000 },
    { type: 'shown', requestId: 'r1', at: 1000, scriptStartedAt: 900, renderStartedAt: 950 },
    { type: 'shown', requestId: 'r1', at: 1000, focusedAt: 980, scriptStartedAt: 900, renderStartedAt: 950 },
  ],
  cspViolation: [{ type: 'cspViolation', directive: 'img-src', blockedUri: 'data', sample: '' }],
};

/** Per type, messages that look like it but are not well formed. */
const INVALID: Record<PageMessage['type'], unknown[]> = {
  ready: [], // nothing to get wrong: a bad `showing` is dropped (see below)
  draft: [
    { type: 'draft', questionId: 'q', value: 'x' },
    { type: 'draft', requestId: 7, questionId: 'q', value: 'x' },
    { type: 'draft', requestId: 'r1', value: 'x' },
    { type: 'draft', requestId: 'r1', questionId: 'q' },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: { nested: true } },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: [1, 2] },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: Number.NaN },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: Number.POSITIVE_INFINITY },
    { type: 'draft', requestId: 'r1', questionId: 'q', value: 'x'.repeat(1_000_001) },
    { type: 'draft', requestId: 'r'.repeat(501), questionId: 'q', value: 'x' },
    { type: 'draft', requestId: 'r1', questionId: 'q'.repeat(10_001), value: 'x' },
  ],
  submit: [
    { type: 'submit', requestId: 'r1' },
    { type: 'submit', requestId: 'r1', values: null },
    { type: 'submit', requestId: 'r1', values: ['x'] },
    { type: 'submit', requestId: 'r1', values: { a: { nested: true } } },
    { type: 'submit', requestId: 'r1', values: { a: [1] } },
    { type: 'submit', requestId: 'r1', values: { a: undefined } },
    { type: 'submit', requestId: 'r1', values: { a: 'x'.repeat(1_000_001) } },
    { type: 'submit', values: {} },
  ],
  decline: [{ type: 'decline' }, { type: 'decline', requestId: 1 }],
  cancel: [{ type: 'cancel' }, { type: 'cancel', requestId: null }],
  stepByStep: [{ type: 'stepByStep' }, { type: 'stepByStep', requestId: ['r1'] }],
  shown: [{ type: 'shown', requestId: 'r1' }, { type: 'shown', requestId: 'r1', at: '1000' }, { type: 'shown', at: 1000 }],
  cspViolation: [
    { type: 'cspViolation', directive: 'img-src', blockedUri: 'data' },
    { type: 'cspViolation', directive: 1, blockedUri: 'data', sample: '' },
    { type: 'cspViolation', directive: 'img-src', blockedUri: 'x'.repeat(2001), sample: '' },
  ],
};

describe('protocol: the messages the form page may send', () => {
  for (const [type, messages] of Object.entries(VALID)) {
    it(`${type}: well-formed messages are taken as they are`, () => {
      for (const message of messages) assert.deepEqual(parsePageMessage(message), message);
    });
    it(`${type}: malformed messages are refused`, () => {
      for (const message of INVALID[type as PageMessage['type']]) assert.equal(parsePageMessage(message), undefined, JSON.stringify(message).slice(0, 120));
    });
  }

  it('garbage is refused', () => {
    for (const garbage of [undefined, null, 0, 'submit', true, [], [{ type: 'cancel', requestId: 'r1' }], {}, { type: 42 }, { type: 'render', form: {} }, { type: 'idle' }, { type: '__proto__' }, { type: 'toString' }]) {
      assert.equal(parsePageMessage(garbage), undefined, String(JSON.stringify(garbage)));
    }
  });

  it('only the fields of the protocol come through', () => {
    assert.deepEqual(parsePageMessage({ type: 'cancel', requestId: 'r1', values: { a: 1 }, extra: true }), { type: 'cancel', requestId: 'r1' });
    assert.deepEqual(parsePageMessage({ type: 'shown', requestId: 'r1', at: 1, scriptStartedAt: 'soon', focusedAt: 'now' }), { type: 'shown', requestId: 'r1', at: 1 });
    // A `showing` that is not a short string is dropped, not trusted.
    assert.deepEqual(parsePageMessage({ type: 'ready', showing: 42 }), { type: 'ready' });
    assert.deepEqual(parsePageMessage({ type: 'ready', showing: 'r'.repeat(501) }), { type: 'ready' });
  });

  it('a submitted field named like an Object member stays an own field', () => {
    const parsed = parsePageMessage(JSON.parse('{"type":"submit","requestId":"r1","values":{"__proto__":"x","constructor":"y"}}'));
    assert.ok(parsed?.type === 'submit');
    assert.deepEqual(Object.keys(parsed.values), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(parsed.values), Object.prototype);
  });
});
