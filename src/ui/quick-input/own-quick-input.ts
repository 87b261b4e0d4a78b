/**
 * The room `src/ui/quick-input/`: VS Code's one quick input, shared: this file (our own
 * pickers take it), `prompt-queue` (questions wait their turn) and `quick-input-frame`
 * (what every prompt in it shows: who asks, the message, Back and Decline). The rooms above
 * (links, prompts) build on it.
 *
 * Our own quick inputs (Run Tool's pickers, the `${input:}` box, Forget Saved Inputs, the
 * pending list) share VS Code's one quick input with the questions. Each takes it through
 * here: the question on screen steps aside and waits (rather than being settled as a
 * cancel nobody chose), and comes back when ours closes. Lint allows
 * `window.showQuickPick` and `window.showInputBox` in this file only.
 */
import * as vscode from 'vscode';

export class OwnQuickInput {
  /** `pause` frees the quick input and returns the way to give it back (NativePrompter.pause). */
  constructor(private readonly pause: () => () => void) {}

  /** Items still loading (a promise) show the pick busy until they come. */
  pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { canPickMany?: false }): Promise<T | undefined> {
    return this.holding(() => vscode.window.showQuickPick(items, { ...options, canPickMany: false }));
  }

  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<readonly T[] | undefined> {
    return this.holding(() => vscode.window.showQuickPick(items, { ...options, canPickMany: true }));
  }

  input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return this.holding(() => vscode.window.showInputBox(options));
  }

  private async holding<T>(show: () => Thenable<T>): Promise<T> {
    const resume = this.pause();
    try {
      return await show();
    } finally {
      resume();
    }
  }
}
