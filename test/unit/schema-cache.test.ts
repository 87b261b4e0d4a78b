import { strict as assert } from 'node:assert';
import { LruCache, schemaKey } from '../../src/elicitation/schema-cache';

describe('schema cache', () => {
  it('keys a schema by its text: equal schemas share a key, different ones do not', () => {
    const a = { type: 'object', properties: { n: { type: 'integer' } } };
    assert.equal(schemaKey(a), schemaKey(JSON.parse(JSON.stringify(a)) as object));
    assert.notEqual(schemaKey(a), schemaKey({ type: 'object', properties: { n: { type: 'number' } } }));
  });

  it('forgets the least recently used entry when full', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1); // a is now the most recent
    cache.set('c', 3);
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], [1, undefined, 3, 2]);
    cache.set('a', 10);
    assert.deepEqual([cache.get('a'), cache.size], [10, 2]);
  });
});
