/**
 * A workspaceState for unit tests: a map, written as VS Code's Memento is (a JSON copy of the
 * value; undefined removes the key), counting its writes. It serves every port the extension
 * gives its Memento to (the tool consents, the task references, the lost-task notes).
 */
export class MementoFake {
  /** Each key's value as JSON, as the Memento keeps it. */
  readonly values = new Map<string, string>();
  writes = 0;

  get<T>(key: string, defaultValue: T): T {
    const value = this.values.get(key);
    return value === undefined ? defaultValue : (JSON.parse(value) as T);
  }

  async update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.stringify(value));
  }
}
