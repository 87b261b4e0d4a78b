import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { History, restoreHistory } from '../../src/elicitation/history';
import { historyText } from '../../src/elicitation/history-text';
import type { Answers, ContentValue } from '../../src/elicitation/model';
import { parseRequestedSchema } from '../../src/elicitation/schema';
import { SecretMask, secretForms, SHORTEST_HIDDEN_INSIDE } from '../../src/elicitation/secret-mask';
import { MASKED } from '../../src/elicitation/shown-answer';
import { SchemaChecker } from '../../src/mcp/sdk/schema-check';
import { answerFits, buildContent, toAnswerValue } from '../../src/elicitation/validation';

type Json = Record<string, unknown>;

const text = fc.string({ maxLength: 12 });
const optionValues = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 });
const titled = (values: string[]): Json[] => values.map((v) => ({ const: v, title: `T ${v}` }));

/** A pair of optional bounds with low <= high. */
function bounds(lo: number, hi: number, integer: boolean): fc.Arbitrary<[number | undefined, number | undefined]> {
  const n = integer ? fc.integer({ min: lo, max: hi }) : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
  return fc.tuple(fc.option(n, { nil: undefined }), fc.option(n, { nil: undefined })).map(([a, b]) =>
    a !== undefined && b !== undefined && a > b ? [b, a] : [a, b],
  );
}

function withOptional(base: Json, extras: Json): Json {
  return Object.fromEntries(Object.entries({ ...base, ...extras }).filter(([, v]) => v !== undefined));
}

const stringProperty = fc
  .tuple(bounds(0, 8, true), fc.option(fc.constantFrom('email', 'uri', 'date', 'date-time'), { nil: undefined }), fc.option(fc.constantFrom('^[a-z]*$', '\\d', '^(ab|c)+$', 'x?y'), { nil: undefined }))
  .map(([[minLength, maxLength], format, pattern]) => withOptional({ type: 'string' }, { minLength, maxLength, format, pattern }));

const numberProperty = fc
  .tuple(fc.constantFrom('number', 'integer'), bounds(-50, 50, true))
  .chain(([type, [minimum, maximum]]) =>
    fc
      .option(fc.integer({ min: minimum ?? -50, max: maximum ?? 50 }), { nil: undefined })
      .map((dflt) => withOptional({ type }, { minimum, maximum, default: dflt })),
  );

const booleanProperty = fc.option(fc.boolean(), { nil: undefined }).map((d) => withOptional({ type: 'boolean' }, { default: d }));

const singleSelect = optionValues.chain((values) =>
  fc.tuple(fc.constantFrom('enum', 'enumNames', 'oneOf'), fc.option(fc.constantFrom(...values), { nil: undefined })).map(([spelling, dflt]) => {
    const base: Json =
      spelling === 'oneOf'
        ? { type: 'string', oneOf: titled(values) }
        : spelling === 'enumNames'
          ? { type: 'string', enum: values, enumNames: values.map((v) => v.toUpperCase()) }
          : { type: 'string', enum: values };
    return withOptional(base, { default: dflt });
  }),
);

const multiSelect = optionValues.chain((values) =>
  fc.tuple(fc.boolean(), bounds(0, values.length, true), fc.subarray(values)).map(([titledItems, [minItems, maxItems], dflt]) => {
    const okDefault = (minItems === undefined || dflt.length >= minItems) && (maxItems === undefined || dflt.length <= maxItems);
    return withOptional(
      { type: 'array', items: titledItems ? { anyOf: titled(values) } : { type: 'string', enum: values } },
      { minItems, maxItems, default: okDefault ? dflt : undefined },
    );
  }),
);

const property = fc
  .tuple(fc.oneof(stringProperty, numberProperty, booleanProperty, singleSelect, multiSelect), fc.option(text, { nil: undefined }), fc.option(text, { nil: undefined }))
  .map(([p, title, description]) => withOptional(p, { title, description }));

const validSchema = fc
  .uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), property), { maxLength: 6, selector: ([k]) => k })
  .chain((entries) =>
    fc.subarray(entries.map(([k]) => k)).map((required) => ({
      type: 'object',
      properties: Object.fromEntries(entries),
      required,
    })),
  );

/** Values a person (or a lying page) might produce for any field. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  text,
  fc.constantFrom('a@example.com', 'https://example.com', '2026-02-28', '2026-11-22T10:00:00Z', 'abc', 'ccab', '7', ''),
  fc.integer({ min: -60, max: 60 }),
  fc.double({ noNaN: true, min: -60, max: 60 }),
  fc.boolean(),
  fc.array(text, { maxLength: 4 }),
);

describe('properties (fast-check)', () => {
  it('every random valid schema parses, one question per property', () => {
    fc.assert(
      fc.property(validSchema, (schema) => {
        const result = parseRequestedSchema(schema);
        if (!result.ok) throw new Error(JSON.stringify(result.problems));
        return result.form.questions.length === Object.keys(schema.properties).length;
      }),
      { numRuns: 1000 },
    );
  });

  it('every answer the core accepts passes ajv on the original schema', () => {
    const checker = new SchemaChecker();
    let accepted = 0;
    fc.assert(
      fc.property(
        validSchema.chain((schema) =>
          fc.tuple(
            fc.constant(schema),
            fc.dictionary(fc.constantFrom(...Object.keys(schema.properties), 'extra'), anyValue),
            fc.boolean(),
            // Option values drawn from the schema, so selects are often answered correctly.
            fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
          ),
        ),
        ([schema, raw, applyDefaults, picks]) => {
          const result = parseRequestedSchema(schema);
          assert.ok(result.ok);
          const answers: Record<string, Answers[string]> = {};
          result.form.questions.forEach((q, i) => {
            let value = raw[q.id] as ContentValue | undefined;
            if ('options' in q && picks[i] % 2 === 0) {
              const chosen = q.options.filter((_, j) => (picks[i] >> j) & 1).map((o) => o.value);
              value = q.kind === 'multi-select' ? chosen : (q.options[picks[i] % q.options.length].value);
            }
            if (value === undefined) return;
            const answer = { state: 'submitted' as const, value: toAnswerValue(q, value) };
            if (answerFits(q, answer)) answers[q.id] = answer;
          });
          const built = buildContent(result.form, answers, { applyDefaults });
          if (!built.ok) return true;
          accepted++;
          const errors = checker.check(schema, built.content);
          if (errors.length > 0) throw new Error(`ajv refused ${JSON.stringify(built.content)}: ${errors.join('; ')}`);
          return true;
        },
      ),
      { numRuns: 1500 },
    );
    // The property means nothing if the core never accepted anything.
    assert.ok(accepted > 200, `only ${accepted} answers were accepted`);
  });

  it('random invalid schemas are refused with problems, never an exception', () => {
    const breakers: Array<(p: Json) => Json> = [
      () => ({ type: 'object', properties: {} }),
      (p) => ({ ...p, type: 'null' }),
      (p) => ({ ...p, $ref: '#/x' }),
      (p) => ({ ...p, allOf: [] }),
      (p) => ({ ...p, type: ['string', 'number'] }),
      () => ({ type: 'array', items: { type: 'object' } }),
      () => ({ type: 'string', minLength: 3, maxLength: 1 }),
      () => ({ type: 'string', enum: [] }),
      () => ({ type: 'string', format: 'ipv6' }),
      () => ({ type: 'integer', default: 0.5 }),
    ];
    fc.assert(
      fc.property(validSchema, fc.nat(), fc.constantFrom(...breakers), (schema, index, breaker) => {
        const keys = Object.keys(schema.properties);
        const key = keys.length > 0 ? keys[index % keys.length] : 'added';
        const broken = {
          ...schema,
          properties: { ...schema.properties, [key]: breaker((schema.properties as Record<string, Json>)[key] ?? {}) },
        };
        const result = parseRequestedSchema(broken);
        return !result.ok && result.problems.length > 0 && result.problems.some((p) => p.path.startsWith(`properties.${key}`));
      }),
      { numRuns: 1000 },
    );
  });

  it('arbitrary JSON never makes the parser throw', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        parseRequestedSchema(value);
        parseRequestedSchema({ type: 'object', properties: { a: value } });
        parseRequestedSchema({ type: 'object', properties: value });
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('properties of secret masking (fast-check)', () => {
  /** A secret long enough to be hidden wherever it appears (not blank: a blank value hides nothing). */
  const secret = fc.string({ unit: 'binary', minLength: SHORTEST_HIDDEN_INSIDE, maxLength: 16 }).filter((s) => [...s].length >= SHORTEST_HIDDEN_INSIDE && s.trim() !== '');
  const around = fc.string({ unit: 'binary', maxLength: 24 });

  it('a secret never survives masking, in any of its forms, wherever it sits in the text', () => {
    fc.assert(
      fc.property(secret, around, around, fc.nat(), (value, before, after, pick) => {
        const forms = secretForms(value);
        const out = new SecretMask([value]).text(`${before}${forms[pick % forms.length]}${after}`);
        return forms.every((form) => !out.includes(form));
      }),
      { numRuns: 2000 },
    );
  });

  it('a text without the secret is kept as it is', () => {
    fc.assert(
      fc.property(secret, around, (value, text) => {
        fc.pre(secretForms(value).every((form) => !text.includes(form)) && !text.includes(value.trim()));
        return new SecretMask([value]).text(text) === text;
      }),
      { numRuns: 2000 },
    );
  });

  it("the History keeps a secret answer in clear nowhere: not in the entry, its document or its stored form, whatever the call's result says", () => {
    fc.assert(
      fc.property(secret, around, around, fc.nat(), (value, before, after, pick) => {
        const history = new History();
        const source = { server: 's', tool: 't', personStarted: true };
        history.add({ id: 'e', source, mode: 'form', message: `m ${before}`, askedAt: 1, endedAt: 2, outcome: 'accepted', answers: [{ question: 'Token', answer: MASKED }] }, [value]);
        const forms = secretForms(value);
        history.attachResult({ server: 's', tool: 't', since: 0 }, `${before}${forms[pick % forms.length]}${after}`);
        const kept = [JSON.stringify(history.entries), historyText(history.entries[0]), JSON.stringify(restoreHistory(JSON.parse(JSON.stringify(history.entries))))];
        return kept.every((text) => forms.every((form) => !text.includes(form) && !text.includes(JSON.stringify(form).slice(1, -1))));
      }),
      { numRuns: 500 },
    );
  });
});
