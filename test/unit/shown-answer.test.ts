import { strict as assert } from 'node:assert';
import { parseRequestedSchema } from '../../src/elicitation/schema';
import { MASKED, shownAnswer } from '../../src/elicitation/shown-answer';

describe('answers as the step-by-step review shows them', () => {
  const parsed = parseRequestedSchema({
    type: 'object',
    properties: {
      user: { type: 'string', title: 'User' },
      password: { type: 'string', title: 'Password' },
      pin: { type: 'string', title: 'API token' },
      colour: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
      ok: { type: 'boolean', title: 'OK' },
    },
  });
  assert.ok(parsed.ok);
  const [user, password, pin, colour, ok] = parsed.form.questions;

  it('a secret-looking answer is masked, and its length is not told', () => {
    assert.ok(password.looksSecret && pin.looksSecret);
    assert.equal(shownAnswer(password, 'hunter2'), MASKED);
    assert.equal(shownAnswer(pin, '1234567890123'), MASKED);
    assert.ok(!MASKED.includes('hunter2'));
  });

  it('other answers are shown as the person reads them', () => {
    assert.equal(shownAnswer(user, 'ada'), 'ada');
    assert.equal(shownAnswer(colour, 'r'), 'Red');
    assert.equal(shownAnswer(ok, false), 'No');
    assert.equal(shownAnswer(password, undefined), '(empty)');
  });
});
