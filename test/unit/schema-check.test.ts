import { strict as assert } from 'node:assert';
import { SchemaChecker } from '../../src/elicitation/schema-check';
import { BOOK_RESTAURANT, PICK_INSTRUMENTS } from '../fixtures/schemas';

describe('final ajv check against the original schema', () => {
  const checker = new SchemaChecker();

  it('passes valid content, with the legacy enumNames keyword present', () => {
    assert.deepEqual(checker.check(BOOK_RESTAURANT, { party_size: 4, date: '2026-12-24', dietary: 'vegan' }), []);
    assert.deepEqual(checker.check(PICK_INSTRUMENTS, { instruments: ['piano', 'drums'] }), []);
  });

  it('reports invalid content with ajv\'s paths', () => {
    const errors = checker.check(BOOK_RESTAURANT, { party_size: '4', date: 'tomorrow' });
    assert.deepEqual(errors, ['/party_size must be integer', '/date must match format "date"']);
    assert.deepEqual(checker.check(BOOK_RESTAURANT, { date: '2026-12-24' }), ["/ must have required property 'party_size'"]);
  });

  it('ignores $schema and $id instead of fetching them', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'urn:x', type: 'object', properties: { a: { type: 'string' } } };
    assert.deepEqual(checker.check(schema, { a: 'x' }), []);
    assert.deepEqual(checker.check(schema, { a: 1 }), ['/a must be string']);
  });

  it('evaluates patterns with the bounded matcher: a hostile pattern fails instead of hanging', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } };
    assert.deepEqual(checker.check(schema, { a: 'aaa' }), []);
    assert.deepEqual(checker.check(schema, { a: `${'a'.repeat(60)}!` }), ['/a must match pattern "^(a+)+$"']);
  });

  it('caches compiled schemas without mixing them up', () => {
    for (let i = 0; i < 100; i++) {
      const schema = { type: 'object', properties: { n: { type: 'integer', maximum: i } } };
      assert.deepEqual(checker.check(schema, { n: i }), []);
      assert.equal(checker.check(schema, { n: i + 1 }).length, 1);
    }
  });
});
