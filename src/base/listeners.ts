/** A minimal event source for the layers that must not depend on `vscode`. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Adds a listener; returns the function that removes it. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  fire(value: T): void {
    for (const listener of [...this.set]) listener(value);
  }
}
