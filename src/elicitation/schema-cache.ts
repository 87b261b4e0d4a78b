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
  /** The most recently used entry: a server asking the same again costs a string compare, not a hash of its text. */
  private last: { readonly key: string; readonly value: V } | undefined;

  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    if (this.last?.key === key) return this.last.value;
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Refresh its place: a Map iterates in insertion order (the last entry is always the newest).
      this.entries.delete(key);
      this.entries.set(key, value);
      this.last = { key, value };
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      if (this.last?.key === oldest) this.last = undefined;
    }
    this.entries.set(key, value);
    this.last = { key, value };
  }

  get size(): number {
    return this.entries.size;
  }
}
