import { strict as assert } from 'node:assert';
import { endedByThePerson, isEndedByThePerson } from '../../src/base/ended-by-person';

describe('a question closed by the person elsewhere', () => {
  it('is told apart from any other ending, through the signals a question derives from its turn', () => {
    const turn = new AbortController();
    const question = AbortSignal.any([turn.signal, new AbortController().signal]);
    turn.abort(endedByThePerson('the turn was cancelled'));
    assert.equal(isEndedByThePerson(question.reason), true);
    assert.equal((question.reason as Error).message, 'the turn was cancelled');
    assert.equal(isEndedByThePerson(new Error('the turn was cancelled')), false);
    assert.equal(isEndedByThePerson('the turn was cancelled'), false);
    assert.equal(isEndedByThePerson(undefined), false);
  });
});
