import { strict as assert } from 'node:assert';
import type { Answer, Answers, Question } from '../../src/elicitation/model';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import {
  buildContent,
  checkValue,
  codePointLength,
  parseTypedText,
  readField,
  toAnswerValue,
} from '../../src/elicitation/validation';
import { BOOK_RESTAURANT, COLLECT_FEEDBACK, CONFIRM_ACTION, PICK_INSTRUMENTS } from '../fixtures/schemas';

function question(property: Record<string, unknown>, required = true): Question {
  return parseRequestedSchemaOrThrow({
    type: 'object',
    properties: { f: { title: 'Field', ...property } },
    required: required ? ['f'] : [],
  }).questions[0];
}

function submitted(q: Question, value: string | number | boolean | string[]): Answer {
  return { state: 'submitted', value: toAnswerValue(q, value) };
}

describe('answers: checks and messages', () => {
  const booking = parseRequestedSchemaOrThrow(BOOK_RESTAURANT);
  const [partySize, date, dietary] = booking.questions;

  it('range messages name the field', () => {
    assert.equal(checkValue(partySize, 0), 'Party Size must be between 1 and 20');
    assert.equal(checkValue(partySize, 21), 'Party Size must be between 1 and 20');
    assert.equal(checkValue(partySize, 4), undefined);
    assert.equal(checkValue(partySize, 2.5), 'Party Size must be a whole number');
    assert.equal(checkValue(question({ type: 'number', minimum: 0 }), -1), 'Field must be at least 0');
    assert.equal(checkValue(question({ type: 'number', maximum: 10 }), 11), 'Field must be at most 10');
    assert.equal(checkValue(question({ type: 'number' }), Number.NaN), 'Field must be a number');
    assert.equal(checkValue(question({ type: 'number' }), '3'), 'Field must be a number');
  });

  it('lengths count code points, as JSON Schema does', () => {
    const q = question({ type: 'string', minLength: 2, maxLength: 3 });
    assert.equal(codePointLength('😀😀'), 2);
    assert.equal(checkValue(q, '😀😀'), undefined);
    assert.equal(checkValue(q, 'a'), 'Field must be between 2 and 3 characters');
    assert.equal(checkValue(q, 'abcd'), 'Field must be between 2 and 3 characters');
    assert.equal(checkValue(question({ type: 'string', maxLength: 1 }), 'ab'), 'Field must be at most 1 character');
    assert.equal(checkValue(question({ type: 'string', minLength: 4, maxLength: 4 }), 'ab'), 'Field must be exactly 4 characters');
  });

  it('formats: email, uri, date, date-time', () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['email', 'a@example.com', undefined],
      ['email', 'not-an-email', 'Field must be an email address, like name@example.com'],
      ['uri', 'https://example.com/x?y=1', undefined],
      ['uri', 'example.com', 'Field must be a URI, like https://example.com/page'],
      ['date', '2026-02-28', undefined],
      ['date', '2026-02-30', 'Field must be a date, like 2026-11-22'],
      ['date-time', '2026-11-22T14:30:00Z', undefined],
      ['date-time', '2026-11-22T14:30:00', 'Field must be a date and time with a time zone, like 2026-11-22T14:30:00Z'],
    ];
    for (const [format, text, expected] of cases) {
      assert.equal(checkValue(question({ type: 'string', format }), text), expected, `${format} ${text}`);
    }
    assert.equal(checkValue(date, '2026-12-01'), undefined);
  });

  it('pattern: a mismatch, a backtracking trap decided in linear time, and the work limit', () => {
    assert.equal(checkValue(question({ type: 'string', pattern: '^[A-Z]{3}$' }), 'abc'), 'Field must match the pattern ^[A-Z]{3}$');
    assert.equal(checkValue(question({ type: 'string', pattern: '^[A-Z]{3}$' }), 'ABC'), undefined);
    assert.equal(checkValue(question({ type: 'string', pattern: '^(a+)+$' }), `${'a'.repeat(50_000)}!`), 'Field must match the pattern ^(a+)+$');
    assert.equal(
      checkValue(question({ type: 'string', pattern: '(?:a[ab]{99}){10}$' }), 'ab'.repeat(50_000)),
      'Field could not be checked against its pattern in reasonable time; try a shorter answer',
    );
  });

  it('selects: unknown values, duplicates and counts', () => {
    assert.equal(checkValue(dietary, 'vegan'), undefined);
    assert.equal(checkValue(dietary, 'Vegan'), 'Dietary Restrictions must be one of: None, Vegetarian, Vegan, Gluten-Free, Halal, Kosher');
    const [instruments] = parseRequestedSchemaOrThrow(PICK_INSTRUMENTS).questions;
    assert.equal(checkValue(instruments, ['piano']), 'Instruments: choose between 2 and 3');
    assert.equal(checkValue(instruments, ['piano', 'bass', 'drums', 'violin']), 'Instruments: choose between 2 and 3');
    assert.equal(checkValue(instruments, ['piano', 'piano']), 'Instruments lists a choice twice');
    assert.equal(checkValue(instruments, ['piano', 'kazoo']), 'Instruments has a choice that is not offered: "kazoo"');
    assert.equal(checkValue(instruments, ['piano', 'drums']), undefined);
    const many = question({ type: 'string', enum: Array.from({ length: 50 }, (_, i) => `o${i}`) });
    assert.equal(checkValue(many, 'zz'), 'Field must be one of: o0, o1, o2, o3, o4 or another listed option');
  });

  it('booleans', () => {
    const [confirm] = parseRequestedSchemaOrThrow(CONFIRM_ACTION).questions;
    assert.equal(checkValue(confirm, false), undefined);
    assert.equal(checkValue(confirm, 'false'), 'Confirm must be yes or no');
  });
});

describe('answers: typed text is coerced', () => {
  const [partySize] = parseRequestedSchemaOrThrow(BOOK_RESTAURANT).questions;

  it('numbers from an input box', () => {
    assert.deepEqual(parseTypedText(partySize, ' 4 '), { ok: true, value: 4 });
    assert.deepEqual(parseTypedText(partySize, '25'), { ok: false, message: 'Party Size must be between 1 and 20' });
    assert.deepEqual(parseTypedText(partySize, '4.5'), { ok: false, message: 'Party Size must be a whole number' });
    assert.deepEqual(parseTypedText(partySize, 'four'), { ok: false, message: 'Party Size must be a whole number' });
    assert.deepEqual(parseTypedText(partySize, '0x10'), { ok: false, message: 'Party Size must be a whole number' });
    assert.deepEqual(parseTypedText(partySize, ''), { ok: true, value: undefined });
    assert.deepEqual(parseTypedText(question({ type: 'number' }), '-1.5e2'), { ok: true, value: -150 });
    assert.deepEqual(parseTypedText(question({ type: 'number' }), 'Infinity'), { ok: false, message: 'Field must be a number' });
  });

  it('text keeps its spaces; booleans and selects accept what a person types', () => {
    assert.deepEqual(parseTypedText(question({ type: 'string' }), '  x  '), { ok: true, value: '  x  ' });
    assert.deepEqual(parseTypedText(question({ type: 'boolean' }), 'Yes'), { ok: true, value: true });
    assert.deepEqual(parseTypedText(question({ type: 'boolean' }), 'maybe'), { ok: false, message: 'Field must be yes or no' });
    const select = question({ type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }] });
    assert.deepEqual(parseTypedText(select, 'Europe'), { ok: true, value: 'eu' });
    assert.deepEqual(parseTypedText(select, 'eu'), { ok: true, value: 'eu' });
    const multi = question({ type: 'array', items: { anyOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] } });
    assert.deepEqual(parseTypedText(multi, 'Alpha, b'), { ok: true, value: ['a', 'b'] });
  });
});

describe('answers: building the accepted content', () => {
  const booking = parseRequestedSchemaOrThrow(BOOK_RESTAURANT);
  const [partySize, date, dietary] = booking.questions;

  it('typed content from submitted answers, in question order', () => {
    const answers: Answers = {
      dietary: submitted(dietary, 'vegan'),
      date: submitted(date, '2026-12-24'),
      party_size: submitted(partySize, 4),
    };
    const result = buildContent(booking, answers, { applyDefaults: false });
    assert.deepEqual(result, { ok: true, content: { party_size: 4, date: '2026-12-24', dietary: 'vegan' } });
    assert.ok(result.ok);
    assert.deepEqual(Object.keys(result.content), ['party_size', 'date', 'dietary']);
  });

  it('applies defaults for fields left empty only when asked to', () => {
    const answers: Answers = { date: submitted(date, '2026-12-24') };
    assert.deepEqual(buildContent(booking, answers, { applyDefaults: true }), {
      ok: true,
      content: { party_size: 2, date: '2026-12-24', dietary: 'none' },
    });
    assert.deepEqual(buildContent(booking, answers, { applyDefaults: false }), {
      ok: false,
      errors: [{ questionId: 'party_size', message: 'Party Size is required' }],
    });
  });

  it('skipped and empty answers are left out; drafts do not count', () => {
    const feedback = parseRequestedSchemaOrThrow(COLLECT_FEEDBACK);
    const [rating, comments] = feedback.questions;
    assert.deepEqual(
      buildContent(feedback, { rating: submitted(rating, '5'), comments: { state: 'skipped' } }, { applyDefaults: true }),
      { ok: true, content: { rating: '5' } },
    );
    assert.deepEqual(
      buildContent(feedback, { rating: submitted(rating, '5'), comments: submitted(comments, '') }, { applyDefaults: true }),
      { ok: true, content: { rating: '5' } },
    );
    assert.deepEqual(
      buildContent(feedback, { rating: { state: 'draft', value: { kind: 'selected', value: '5' } } }, { applyDefaults: true }),
      { ok: false, errors: [{ questionId: 'rating', message: 'Rating is required' }] },
    );
  });

  it('reports every invalid field, first field first', () => {
    const answers: Answers = {
      party_size: submitted(partySize, 99),
      date: submitted(date, 'tomorrow'),
      dietary: { state: 'submitted', value: { kind: 'text', value: 'vegan' } },
    };
    assert.deepEqual(buildContent(booking, answers, { applyDefaults: false }), {
      ok: false,
      errors: [
        { questionId: 'party_size', message: 'Party Size must be between 1 and 20' },
        { questionId: 'date', message: 'Reservation Date must be a date, like 2026-11-22' },
        { questionId: 'dietary', message: 'Dietary Restrictions has an answer of the wrong kind' },
      ],
    });
  });

  it('a false boolean is an answer, not an empty one', () => {
    const form = parseRequestedSchemaOrThrow(CONFIRM_ACTION);
    assert.deepEqual(buildContent(form, { confirm: submitted(form.questions[0], false) }, { applyDefaults: false }), {
      ok: true,
      content: { confirm: false },
    });
  });

  it('a field named __proto__ is content, not a prototype', () => {
    const form = parseRequestedSchemaOrThrow(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'));
    const result = buildContent(form, { ['__proto__']: submitted(form.questions[0], 'x') }, { applyDefaults: false });
    assert.ok(result.ok);
    assert.equal(Object.getPrototypeOf(result.content), Object.prototype);
    assert.deepEqual(Object.keys(result.content), ['__proto__']);
    assert.equal(JSON.stringify(result.content), '{"__proto__":"x"}');
  });

  it('hostile text answers are kept as data', () => {
    const form = parseRequestedSchemaOrThrow({ type: 'object', properties: { t: { type: 'string' } } });
    const text = `<script>alert(1)</script>\u202E${'x'.repeat(100_000)}`;
    const result = buildContent(form, { t: submitted(form.questions[0], text) }, { applyDefaults: false });
    assert.deepEqual(result, { ok: true, content: { t: text } });
  });
});

describe('answers: reading form fields', () => {
  const [partySize, date, dietary] = parseRequestedSchemaOrThrow(BOOK_RESTAURANT).questions;
  const [instruments] = parseRequestedSchemaOrThrow(PICK_INSTRUMENTS).questions;

  it('raw text becomes the typed value, checked', () => {
    assert.deepEqual(readField(partySize, '4'), { ok: true, value: 4 });
    assert.deepEqual(readField(partySize, '40'), { ok: false, message: 'Party Size must be between 1 and 20' });
    assert.deepEqual(readField(partySize, 4), { ok: true, value: 4 });
    assert.deepEqual(readField(date, ''), { ok: true, value: undefined });
    assert.deepEqual(readField(dietary, 'vegan'), { ok: true, value: 'vegan' });
    assert.deepEqual(readField(dietary, 'Vegan!'), { ok: false, message: 'Dietary Restrictions must be one of: None, Vegetarian, Vegan, Gluten-Free, Halal, Kosher' });
    assert.deepEqual(readField(instruments, []), { ok: true, value: undefined });
    assert.deepEqual(readField(instruments, ['piano']), { ok: false, message: 'Instruments: choose between 2 and 3' });
    assert.deepEqual(readField(instruments, null), { ok: true, value: undefined });
  });
});
