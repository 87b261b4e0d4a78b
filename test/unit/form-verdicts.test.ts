import { strict as assert } from 'node:assert';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import { buildContent } from '../../src/elicitation/validation';
import { parsePageMessage } from '../../src/shared/protocol';
import { isAboutShownForm, judgeSubmission, storableDraft } from '../../src/ui/form/form-verdicts';
import { BOOK_RESTAURANT, PICK_INSTRUMENTS } from '../fixtures/schemas';

describe('form panel: the host does not take the page\'s word', () => {
  const booking = parseRequestedSchemaOrThrow(BOOK_RESTAURANT);
  const instruments = parseRequestedSchemaOrThrow(PICK_INSTRUMENTS);

  /** What the server would receive if the host accepted this submission. */
  function sentToServer(values: Record<string, unknown>): unknown {
    const message = parsePageMessage({ type: 'submit', requestId: 'r1', values });
    if (message?.type !== 'submit') return 'not in the protocol';
    const verdict = judgeSubmission(booking.questions, message.values);
    if (!verdict.ok) return { refused: verdict.refusals };
    const built = buildContent(booking, verdict.answers, { applyDefaults: true });
    return built.ok ? built.content : { refused: built.errors };
  }

  it('an honest submission is accepted and typed as the schema says', () => {
    assert.deepEqual(sentToServer({ party_size: '4', date: '2026-12-24', dietary: 'vegan' }), { party_size: 4, date: '2026-12-24', dietary: 'vegan' });
    // Empty optional fields are skipped and take their default.
    assert.deepEqual(sentToServer({ party_size: 4, date: '2026-12-24', dietary: null }), { party_size: 4, date: '2026-12-24', dietary: 'none' });
  });

  it('a page that lies about valid values is refused, field by field, and nothing is sent', () => {
    assert.deepEqual(sentToServer({ party_size: 40, date: '2026-12-24', dietary: 'vegan' }), { refused: { party_size: 'Party Size must be between 1 and 20' } });
    assert.deepEqual(sentToServer({ party_size: '2.5', date: 'tomorrow', dietary: 'pizza' }), {
      refused: {
        party_size: 'Party Size must be a whole number',
        date: 'Reservation Date must be a date, like 2026-11-22',
        dietary: 'Dietary Restrictions must be one of: None, Vegetarian, Vegan, Gluten-Free, Halal, Kosher',
      },
    });
    assert.deepEqual(sentToServer({ party_size: true, date: ['2026-12-24'] }), {
      refused: { party_size: 'Party Size must be a number', date: 'Reservation Date must be text' },
    });
  });

  it('required fields left out or emptied are refused; fields the form does not have are never read', () => {
    // (`__proto__` here sets the prototype: an inherited party_size is not an answer.)
    assert.deepEqual(sentToServer({ dietary: 'vegan', admin: true, __proto__: { party_size: 4 } }), {
      refused: { party_size: 'Party Size is required', date: 'Reservation Date is required' },
    });
    assert.deepEqual(sentToServer({ party_size: '  ', date: '', extra: 'x' }), {
      refused: { party_size: 'Party Size is required', date: 'Reservation Date is required' },
    });
    const verdict = judgeSubmission(booking.questions, { party_size: 4, date: '2026-12-24', dietary: 'none', smuggled: 'x' });
    assert.ok(verdict.ok);
    assert.deepEqual(Object.keys(verdict.answers), ['party_size', 'date', 'dietary']);
  });

  it('choices must be offered, unique and within the counts', () => {
    const judge = (choices: string[]): unknown => {
      const verdict = judgeSubmission(instruments.questions, { instruments: choices });
      return verdict.ok ? 'accepted' : Object.values(verdict.refusals)[0];
    };
    assert.equal(judge(['guitar', 'drums']), 'accepted');
    assert.match(String(judge(['guitar', 'kazoo'])), /not offered: "kazoo"/);
    assert.match(String(judge(['guitar', 'guitar'])), /twice/);
    assert.match(String(judge(['guitar'])), /choose between 2 and 3/);
  });

  it('a message about a form the page was not shown is ignored', () => {
    // Shown r1, and r1 is current: the one case that counts.
    assert.equal(isAboutShownForm('r1', 'r1', 'r1'), true);
    // The host moved on to r2 (not rendered yet): the page's r1 answer is stale.
    assert.equal(isAboutShownForm('r1', 'r2', 'r1'), false);
    // r2 waits (its id is known elsewhere), but this page was never given it.
    assert.equal(isAboutShownForm('r2', 'r2', 'r1'), false);
    assert.equal(isAboutShownForm('r2', 'r2', undefined), false);
    // Nothing is current.
    assert.equal(isAboutShownForm('r1', undefined, 'r1'), false);
    assert.equal(isAboutShownForm('made-up', 'r1', 'r1'), false);
  });

  it('drafts enter the store only well typed; text that does not parse yet stays out', () => {
    const [partySize, date] = booking.questions;
    assert.deepEqual(storableDraft(partySize, '6'), { store: true, answer: { state: 'draft', value: { kind: 'number', value: 6 } } });
    assert.deepEqual(storableDraft(partySize, '6.'), { store: true, answer: { state: 'draft', value: { kind: 'number', value: 6 } } });
    assert.deepEqual(storableDraft(partySize, 'six'), { store: false });
    assert.deepEqual(storableDraft(partySize, '99'), { store: false });
    assert.deepEqual(storableDraft(date, null), { store: true }, 'an emptied field clears its draft');
    assert.deepEqual(storableDraft(date, ''), { store: true });
  });
});
