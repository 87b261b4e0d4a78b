import { strict as assert } from 'node:assert';
import { describeProblems, InvalidSchemaError, parseRequestedSchema, parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import type { Question } from '../../src/elicitation/model';
import {
  BOOK_RESTAURANT,
  COLLECT_FEEDBACK,
  CONFIRM_ACTION,
  EMPTY_CONFIRM,
  INVALID_NESTED,
  PICK_INSTRUMENTS,
} from '../fixtures/schemas';

function one(property: Record<string, unknown>, required = false): Question {
  const form = parseRequestedSchemaOrThrow({
    type: 'object',
    properties: { field: property },
    ...(required && { required: ['field'] }),
  });
  assert.equal(form.questions.length, 1);
  return form.questions[0];
}

/** The problems for a single-property schema, as "path: message" lines. */
function problemsFor(property: unknown): string[] {
  const result = parseRequestedSchema({ type: 'object', properties: { field: property } });
  assert.equal(result.ok, false, 'expected the schema to be refused');
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('schema model', () => {
  describe('the PHP SDK example schemas', () => {
    it('book_restaurant: integer with range and default, a date, a legacy enumNames enum', () => {
      const { questions } = parseRequestedSchemaOrThrow(BOOK_RESTAURANT);
      assert.deepEqual(
        questions.map((q) => [q.id, q.kind, q.required]),
        [
          ['party_size', 'integer', true],
          ['date', 'text', true],
          ['dietary', 'single-select', false],
        ],
      );
      assert.deepEqual(questions[0], {
        id: 'party_size',
        title: 'Party Size',
        description: 'Number of guests in your party',
        required: true,
        looksSecret: false,
        kind: 'integer',
        minimum: 1,
        maximum: 20,
        defaultValue: 2,
      });
      assert.equal(questions[1].kind === 'text' && questions[1].format, 'date');
      const dietary = questions[2];
      assert.ok(dietary.kind === 'single-select');
      assert.deepEqual(dietary.options[2], { value: 'vegan', label: 'Vegan' });
      assert.equal(dietary.defaultValue, 'none');
    });

    it('confirm_action: one required boolean with a default', () => {
      const [confirm] = parseRequestedSchemaOrThrow(CONFIRM_ACTION).questions;
      assert.equal(confirm.kind, 'boolean');
      assert.equal(confirm.required, true);
      assert.equal(confirm.defaultValue, false);
    });

    it('collect_feedback: a required rating enum and an optional comment with maxLength', () => {
      const [rating, comments] = parseRequestedSchemaOrThrow(COLLECT_FEEDBACK).questions;
      assert.ok(rating.kind === 'single-select');
      assert.equal(rating.options[4].label, '5 - Excellent');
      assert.ok(comments.kind === 'text');
      assert.equal(comments.maxLength, 500);
      assert.equal(comments.required, false);
    });

    it('an empty-properties schema is a yes/no question with no fields', () => {
      assert.deepEqual(parseRequestedSchemaOrThrow(EMPTY_CONFIRM).questions, []);
      assert.deepEqual(parseRequestedSchemaOrThrow({ type: 'object' }).questions, []);
    });

    it('pick_instruments: a titled multi-select with min and max and a default', () => {
      const [q] = parseRequestedSchemaOrThrow(PICK_INSTRUMENTS).questions;
      assert.ok(q.kind === 'multi-select');
      assert.equal(q.minItems, 2);
      assert.equal(q.maxItems, 3);
      assert.deepEqual(q.defaultValue, ['piano', 'bass']);
      assert.deepEqual(q.options[1], { value: 'guitar', label: 'Guitar' });
    });
  });

  describe('every field kind and keyword', () => {
    it('string with minLength, maxLength, each format, pattern and default', () => {
      for (const format of ['email', 'uri', 'date', 'date-time'] as const) {
        const q = one({ type: 'string', format });
        assert.ok(q.kind === 'text' && q.format === format);
      }
      const q = one({ type: 'string', minLength: 2, maxLength: 8, pattern: '^[a-z]+$', default: 'abc', title: 'Code' }, true);
      assert.deepEqual(q, {
        id: 'field', title: 'Code', required: true, looksSecret: false, kind: 'text',
        minLength: 2, maxLength: 8, pattern: '^[a-z]+$', defaultValue: 'abc',
      });
    });

    it('number and integer keep their kinds, minimum, maximum and default', () => {
      const n = one({ type: 'number', minimum: 0.5, maximum: 9.5, default: 1.5 });
      assert.deepEqual([n.kind, n.kind === 'number' && n.minimum, n.kind === 'number' && n.maximum, n.defaultValue], ['number', 0.5, 9.5, 1.5]);
      assert.equal(one({ type: 'integer' }).kind, 'integer');
    });

    it('boolean with a default', () => {
      assert.equal(one({ type: 'boolean', default: true }).defaultValue, true);
    });

    it('single select, untitled enum: labels are the values', () => {
      const q = one({ type: 'string', enum: ['a', 'b'], default: 'b' });
      assert.ok(q.kind === 'single-select');
      assert.deepEqual(q.options, [{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }]);
      assert.equal(q.defaultValue, 'b');
    });

    it('single select, oneOf of {const, title}, with ACP option descriptions', () => {
      const q = one({
        type: 'string',
        oneOf: [
          { const: 'eu', title: 'Europe', description: 'Frankfurt' },
          { const: 'us', title: 'United States' },
          { const: 'ap' },
        ],
      });
      assert.ok(q.kind === 'single-select');
      assert.deepEqual(q.options, [
        { value: 'eu', label: 'Europe', description: 'Frankfurt' },
        { value: 'us', label: 'United States' },
        { value: 'ap', label: 'ap' },
      ]);
    });

    it('an enum without a type is a string enum', () => {
      assert.equal(one({ enum: ['x', 'y'] }).kind, 'single-select');
    });

    it('multi select with items.enum, and with items.oneOf', () => {
      const a = one({ type: 'array', items: { type: 'string', enum: ['x', 'y'] }, uniqueItems: true });
      assert.ok(a.kind === 'multi-select');
      assert.deepEqual(a.options.map((o) => o.label), ['x', 'y']);
      const b = one({ type: 'array', items: { oneOf: [{ const: 'x', title: 'Ex' }] } });
      assert.ok(b.kind === 'multi-select' && b.options[0].label === 'Ex');
    });

    it('title falls back to the key; description is kept', () => {
      const q = one({ type: 'string', description: 'Why' });
      assert.equal(q.title, 'field');
      assert.equal(q.description, 'Why');
    });

    it('keeps the server property order', () => {
      const form = parseRequestedSchemaOrThrow({
        type: 'object',
        properties: { z: { type: 'string' }, a: { type: 'string' }, m: { type: 'boolean' } },
      });
      assert.deepEqual(form.questions.map((q) => q.id), ['z', 'a', 'm']);
    });

    it('ignores unknown annotation keywords and $schema', () => {
      const form = parseRequestedSchemaOrThrow({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        'x-vendor': { anything: true },
        properties: { a: { type: 'string', examples: ['x'], 'x-widget': 'fancy', deprecated: false, $comment: 'hi' } },
      });
      assert.equal(form.questions.length, 1);
    });

    it('reads an empty-string default that breaks its field as no default (servers write "no default" so)', () => {
      const form = parseRequestedSchemaOrThrow({
        type: 'object',
        properties: { email: { type: 'string', format: 'email', default: '' }, code: { type: 'string', minLength: 3, default: '' }, note: { type: 'string', default: '' } },
      });
      assert.deepEqual(form.questions.map((q) => [q.id, q.defaultValue]), [['email', undefined], ['code', undefined], ['note', '']]);
      assert.ok(!('defaultValue' in form.questions[0]));
    });

    it('flags fields that look like secrets', () => {
      const form = parseRequestedSchemaOrThrow({
        type: 'object',
        properties: {
          password: { type: 'string' },
          apiKey: { type: 'string', title: 'API key' },
          name: { type: 'string' },
        },
      });
      assert.deepEqual(form.questions.map((q) => q.looksSecret), [true, true, false]);
    });
  });

  describe('refusals name every offending path and why', () => {
    it('nested objects and arrays of objects, both reported at once', () => {
      const result = parseRequestedSchema(INVALID_NESTED);
      assert.ok(!result.ok);
      assert.deepEqual(result.problems.map((p) => `${p.path}: ${p.message}`), [
        'properties.address: nested objects are not allowed in elicitation schemas',
        'properties.contacts.items.type: must be "string": multi-select options are strings, not "object"',
      ]);
      assert.match(describeProblems(result.problems), /properties\.address: nested objects/);
    });

    it('throws InvalidSchemaError carrying the problems', () => {
      assert.throws(() => parseRequestedSchemaOrThrow(INVALID_NESTED), (e: unknown) => {
        assert.ok(e instanceof InvalidSchemaError);
        assert.equal(e.problems.length, 2);
        assert.match(e.message, /^properties\.address: nested objects are not allowed/);
        return true;
      });
    });

    const cases: Array<[string, unknown, string]> = [
      ['the root is not an object', 'a string', 'requestedSchema: must be an object schema, not "a string"'],
      ['the root type is not object', { type: 'array' }, 'requestedSchema.type: must be "object", not "array"'],
      ['composition at the root', { type: 'object', properties: {}, anyOf: [] }, "anyOf: 'anyOf' is not allowed at the top of an elicitation schema"],
      ['$ref at the root', { type: 'object', $ref: '#/x' }, "$ref: '$ref' is not allowed at the top of an elicitation schema"],
      ['properties is not an object', { type: 'object', properties: [] }, 'properties: must be an object, not []'],
      ['required names a missing property', { type: 'object', properties: {}, required: ['ghost'] }, 'required.0: "ghost" is not one of the properties'],
      ['required is not an array', { type: 'object', properties: {}, required: 'x' }, 'required: must be an array of property names, not "x"'],
      ['additionalProperties is a schema', { type: 'object', additionalProperties: { type: 'string' } }, 'additionalProperties: may only be true or false in elicitation schemas'],
    ];
    for (const [name, schema, expected] of cases) {
      it(name, () => {
        const result = parseRequestedSchema(schema);
        assert.ok(!result.ok);
        assert.equal(`${result.problems[0].path}: ${result.problems[0].message}`, expected);
      });
    }

    const fieldCases: Array<[string, unknown, string]> = [
      ['a property that is not a schema', 'text', 'properties.field: must be a schema object, not "text"'],
      ['no type', {}, 'properties.field: needs a type: string, number, integer, boolean or array'],
      ['a type array', { type: ['string', 'null'] }, 'properties.field.type: must have one type, not ["string","null"]'],
      ['an unknown type', { type: 'null' }, 'properties.field.type: type "null" is not allowed in elicitation schemas (string, number, integer, boolean or array)'],
      ['$ref in a property', { type: 'string', $ref: '#/a' }, "properties.field.$ref: '$ref' is not allowed on strings in elicitation schemas"],
      ['multipleOf on a number', { type: 'number', multipleOf: 2 }, "properties.field.multipleOf: 'multipleOf' is not allowed on numbers in elicitation schemas"],
      ['exclusiveMinimum on an integer', { type: 'integer', exclusiveMinimum: 0 }, "properties.field.exclusiveMinimum: 'exclusiveMinimum' is not allowed on integers in elicitation schemas"],
      ['const on a string', { type: 'string', const: 'x' }, "properties.field.const: 'const' is not allowed on strings in elicitation schemas"],
      ['enum on a number', { type: 'number', enum: [1, 2] }, "properties.field.enum: 'enum' is not allowed on numbers in elicitation schemas"],
      ['minLength on a boolean', { type: 'boolean', minLength: 1 }, "properties.field.minLength: 'minLength' is not allowed on booleans in elicitation schemas"],
      ['an unsupported format', { type: 'string', format: 'uuid' }, 'properties.field.format: "uuid" is not one of email, uri, date, date-time'],
      ['a negative minLength', { type: 'string', minLength: -1 }, 'properties.field.minLength: must be a whole number of at least 0, not -1'],
      ['a fractional maxLength', { type: 'string', maxLength: 2.5 }, 'properties.field.maxLength: must be a whole number of at least 0, not 2.5'],
      ['minLength above maxLength', { type: 'string', minLength: 5, maxLength: 2 }, 'properties.field.minLength: minLength 5 is greater than maxLength 2, so no answer could be valid'],
      ['minimum above maximum', { type: 'number', minimum: 5, maximum: 1 }, 'properties.field.minimum: minimum 5 is greater than maximum 1, so no answer could be valid'],
      ['a non-numeric minimum', { type: 'number', minimum: '1' }, 'properties.field.minimum: must be a number, not "1"'],
      ['an invalid pattern', { type: 'string', pattern: '([a-z' }, 'properties.field.pattern: is not a valid pattern: /([a-z/u: Unterminated character class'],
      ['a pattern that is not a string', { type: 'string', pattern: 5 }, 'properties.field.pattern: must be a string, not 5'],
      ['a title that is not a string', { type: 'string', title: 5 }, 'properties.field.title: must be a string, not 5'],
      ['an empty enum', { type: 'string', enum: [] }, 'properties.field.enum: must be a non-empty array of strings'],
      ['a non-string enum value', { type: 'string', enum: ['a', 2] }, 'properties.field.enum.1: must be a string, not 2'],
      ['a duplicated enum value', { type: 'string', enum: ['a', 'a'] }, 'properties.field.enum.1: the value "a" is listed twice'],
      ['enumNames of the wrong length', { type: 'string', enum: ['a', 'b'], enumNames: ['A'] }, 'properties.field.enumNames: must be an array with one name per enum value (2)'],
      ['enumNames without enum', { type: 'string', enumNames: ['A'] }, 'properties.field.enumNames: enumNames needs an enum'],
      ['both enum and oneOf', { type: 'string', enum: ['a'], oneOf: [{ const: 'a' }] }, 'properties.field: use either enum or oneOf, not both'],
      ['a oneOf option without const', { type: 'string', oneOf: [{ title: 'A' }] }, 'properties.field.oneOf.0: const must be a string, not undefined'],
      ['a nested schema in oneOf', { type: 'string', oneOf: [{ const: 'a', type: 'string' }] }, "properties.field.oneOf.0.type: 'type' is not allowed in an option"],
      ['length keywords on a choice', { type: 'string', enum: ['a'], maxLength: 3 }, "properties.field.maxLength: 'maxLength' does not apply to a choice of options"],
      ['an enum default that is not an option', { type: 'string', enum: ['a'], default: 'z' }, 'properties.field.default: must be one of the options, not "z"'],
      ['a string default that is a number', { type: 'string', default: 3 }, 'properties.field.default: must be a string, not 3'],
      ['an integer default with a fraction', { type: 'integer', default: 1.5 }, 'properties.field.default: must be a whole number, not 1.5'],
      ['a boolean default that is a string', { type: 'boolean', default: 'yes' }, 'properties.field.default: must be true or false, not "yes"'],
      ['a default outside the range', { type: 'integer', minimum: 1, maximum: 5, default: 9, title: 'Size' }, 'properties.field.default: 9 breaks the field\'s own rules (Size must be between 1 and 5)'],
      ['a default that breaks the format', { type: 'string', format: 'email', default: 'nope' }, 'properties.field.default: "nope" breaks the field\'s own rules (field must be an email address, like name@example.com)'],
      ['an array without items', { type: 'array' }, 'properties.field.items: must be an object listing the options (items.enum or items.anyOf); arrays of other things are not allowed in elicitation schemas'],
      ['an array of free strings', { type: 'array', items: { type: 'string' } }, 'properties.field.items: must list the options with enum or anyOf; free-form arrays are not allowed in elicitation schemas'],
      ['an array of numbers', { type: 'array', items: { type: 'number', enum: [1] } }, 'properties.field.items.type: must be "string": multi-select options are strings, not "number"'],
      ['minItems above the option count', { type: 'array', minItems: 3, items: { enum: ['a', 'b'] } }, 'properties.field.minItems: asks for at least 3 choices but there are only 2 options'],
      ['minItems above maxItems', { type: 'array', minItems: 2, maxItems: 1, items: { enum: ['a', 'b'] } }, 'properties.field.minItems: minItems 2 is greater than maxItems 1, so no answer could be valid'],
      ['contains on an array', { type: 'array', contains: {}, items: { enum: ['a'] } }, "properties.field.contains: 'contains' is not allowed on multi-select arrays in elicitation schemas"],
      ['a multi-select default with an unknown value', { type: 'array', items: { enum: ['a'] }, default: ['b'] }, 'properties.field.default: must be a list of distinct option values, not ["b"]'],
      ['a multi-select default with duplicates', { type: 'array', items: { enum: ['a'] }, default: ['a', 'a'] }, 'properties.field.default: must be a list of distinct option values, not ["a","a"]'],
    ];
    for (const [name, property, expected] of fieldCases) {
      it(name, () => {
        assert.equal(problemsFor(property)[0], expected);
      });
    }

    it('reports problems in several fields together', () => {
      const result = parseRequestedSchema({
        type: 'object',
        properties: { a: { type: 'object' }, b: { type: 'string', format: 'ipv4' }, c: { type: 'string' } },
        required: ['c', 'd'],
      });
      assert.ok(!result.ok);
      assert.deepEqual(result.problems.map((p) => p.path), ['required.1', 'properties.a', 'properties.b.format']);
    });
  });

  describe('hostile text is kept as data', () => {
    it('markup, RTL overrides and control characters pass through unchanged', () => {
      const title = '<script>alert(1)</script>\u202Egnp.exe';
      const description = '<img src=x onerror=alert(1)> $(rm -rf) {{7*7}} \u0000';
      const q = one({ type: 'string', title, description, enum: ['<b>x</b>'], enumNames: ['&lt;b&gt;'] });
      assert.equal(q.title, title);
      assert.equal(q.description, description);
      assert.ok(q.kind === 'single-select');
      assert.deepEqual(q.options[0], { value: '<b>x</b>', label: '&lt;b&gt;' });
    });

    it('a 30 kB title and description', () => {
      const big = 'x'.repeat(30_000);
      const q = one({ type: 'string', title: big, description: big });
      assert.equal(q.title.length, 30_000);
      assert.equal(q.description?.length, 30_000);
    });

    it('property keys that look like prototype members are ordinary fields', () => {
      const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"boolean"}},"required":["__proto__"]}');
      const form = parseRequestedSchemaOrThrow(schema);
      assert.deepEqual(form.questions.map((q) => [q.id, q.required]), [['__proto__', true], ['constructor', false]]);
    });
  });
});
