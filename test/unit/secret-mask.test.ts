/**
 * Hiding a secret answer's value in other text: every form text carries it in, short
 * values only where they stand alone, blank values never, and a text the mask cannot
 * clean is withheld whole.
 */
import { strict as assert } from 'node:assert';
import { SecretMask, secretForms, WITHHELD } from '../../src/elicitation/secret-mask';
import { MASKED } from '../../src/elicitation/shown-answer';

describe('masking secret answers in text', () => {
  it('the forms a value takes: as typed, in JSON (also ASCII-only and escaped twice), percent-encoded', () => {
    assert.deepEqual(secretForms('a "b"/é'), ['a "b"/é', 'a \\"b\\"/é', 'a \\"b\\"/\\u00e9', 'a \\\\\\"b\\\\\\"/é', 'a%20%22b%22%2F%C3%A9', 'a%20%22b%22/%C3%A9', 'a+%22b%22%2F%C3%A9']);
    assert.deepEqual(secretForms('plain'), ['plain'], 'one form when they are all the same');
  });

  it('hides every form, the longest first so a value that holds another is hidden whole', () => {
    const mask = new SecretMask(['hunter22', 'hunter22-and-more']);
    assert.equal(mask.text('x hunter22-and-more y hunter22 z'), `x ${MASKED} y ${MASKED} z`);
    assert.equal(mask.text('{"t":"hunter22"} ?t=hunter22'), `{"t":"${MASKED}"} ?t=${MASKED}`);
  });

  it('a short value only where it stands alone; inside a longer word or number it stays', () => {
    const mask = new SecretMask(['7', 'yes']);
    assert.equal(mask.text('party of 7, on 2027-07-17; "yes"; yesterday; eyes'), `party of ${MASKED}, on 2027-07-17; "${MASKED}"; yesterday; eyes`);
  });

  it('a value with spaces around it is hidden as typed and trimmed; a blank value hides nothing', () => {
    assert.equal(new SecretMask([' sk-live-1 ']).text('key=sk-live-1;'), `key=${MASKED};`);
    const blank = new SecretMask(['', '   ']);
    assert.equal(blank.active, false);
    assert.equal(blank.text('a   b'), 'a   b');
  });

  it('a text that would still show the value once masked (a value made of the dots of the mask) is withheld', () => {
    assert.equal(new SecretMask(['••••']).text('code ••••'), WITHHELD);
  });
});
