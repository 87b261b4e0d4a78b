/**
 * `${input:id}` values: asked once with an input box (masked for passwords), kept in
 * SecretStorage, and forgotten on request.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from '../mcp/config';
import { plain } from './text';

const KEY_PREFIX = 'elicitationHost.input.';
const INDEX_KEY = 'elicitationHost.savedInputs';

export class InputResolver {
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  resolve = (input: InputDefinition): Promise<string | undefined> => {
    // Two servers that need the same input at once share one question.
    let pending = this.asking.get(input.id);
    if (!pending) {
      pending = this.lookUpOrAsk(input).finally(() => this.asking.delete(input.id));
      this.asking.set(input.id, pending);
    }
    return pending;
  };

  private async lookUpOrAsk(input: InputDefinition): Promise<string | undefined> {
    const saved = await this.secrets.get(KEY_PREFIX + input.id);
    if (saved !== undefined) return saved;
    const value = await vscode.window.showInputBox({
      title: `MCP server configuration: \${input:${input.id}}`,
      prompt: plain(input.description, 500),
      password: input.password,
      ignoreFocusOut: true,
      ...(input.default !== undefined && { value: input.default }),
    });
    if (value === undefined) return undefined;
    await this.secrets.store(KEY_PREFIX + input.id, value);
    const ids = new Set(this.state.get<string[]>(INDEX_KEY, []));
    ids.add(input.id);
    await this.state.update(INDEX_KEY, [...ids]);
    return value;
  }

  /** Lets the person choose saved inputs to forget; they are asked again next time. */
  async forget(): Promise<void> {
    const ids = this.state.get<string[]>(INDEX_KEY, []);
    if (ids.length === 0) {
      void vscode.window.showInformationMessage('No server inputs are saved.');
      return;
    }
    const chosen = await vscode.window.showQuickPick(
      ids.map((id) => ({ label: id, picked: false })),
      { title: 'Forget Saved Inputs', placeHolder: 'Choose the inputs to forget', canPickMany: true },
    );
    if (!chosen || chosen.length === 0) return;
    for (const { label } of chosen) await this.secrets.delete(KEY_PREFIX + label);
    await this.state.update(INDEX_KEY, ids.filter((id) => !chosen.some((c) => c.label === id)));
    void vscode.window.showInformationMessage(`Forgot ${chosen.length} saved input${chosen.length === 1 ? '' : 's'}; restart the servers that use them to be asked again.`);
  }
}
