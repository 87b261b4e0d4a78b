/**
 * Servers ask with the same schema again and again (a confirm, a booking form), so what is
 * derived from a schema (its parsed form, its compiled check) is kept per schema text, and
 * a repeated question costs a lookup instead of a parse.
 */

const keys = new WeakMap<object, string>();

/** The schema's text; computed once per schema object, however many caches ask for it. */
export function schemaKey(schema: object): string {
  let key = keys.get(schema);
  if (key === undefined) {
    key = JSON.stringify(schema);
    keys.set(schema, key);
  }
  return key;
}

/** A map of bounded size that forgets the least recently used entry first. */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Refresh its place: a Map iterates in insertion order.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
