import { strict as assert } from 'node:assert';
import { SchemaChecker } from '../../src/mcp/sdk/schema-check';
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

  it('evaluates patterns with our linear-time matcher: the verdicts the person was shown', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' }, b: { type: 'string', pattern: '^\\s$' } } };
    assert.deepEqual(checker.check(schema, { a: 'aaa', b: '\u00a0' }), []);
    assert.deepEqual(checker.check(schema, { a: `${'a'.repeat(100_000)}!`, b: 'x' }), ['/a must match pattern "^(a+)+$"', '/b must match pattern "^\\s$"']);
  });

  it('caches compiled schemas without mixing them up', () => {
    const fresh = new SchemaChecker();
    // ajv's compile is the cost the cache saves: count it.
    const ajv = fresh['ajv'];
    const compile = ajv.compile.bind(ajv);
    let compiled = 0;
    ajv.compile = ((schema: object) => {
      compiled++;
      return compile(schema);
    }) as typeof ajv.compile;
    for (let i = 0; i < 3; i++) assert.deepEqual(fresh.check(structuredClone(BOOK_RESTAURANT), { party_size: 2, date: '2026-12-24' }), []);
    assert.equal(compiled, 1, 'the same schema, sent three times, should be compiled once');
    for (let i = 0; i < 100; i++) {
      const schema = { type: 'object', properties: { n: { type: 'integer', maximum: i } } };
      assert.deepEqual(fresh.check(schema, { n: i }), []);
      assert.equal(fresh.check(schema, { n: i + 1 }).length, 1);
    }
    assert.equal(compiled, 101);
  });
});
