/**
 * `${input:id}` values: asked once with an input box (masked for passwords), kept in
 * SecretStorage per scope (the mcp.json that defines the input), and forgotten on request.
 * A value is only ever handed to the file it was given for: a workspace whose mcp.json
 * reuses an id the person answered elsewhere is asked afresh.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from '../../mcp/config/config';
import { showInfo } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { iconSafe, messageSafe, oneLine } from '../text';

const KEY_PREFIX = 'elicitationHost.input.';
const INDEX_KEY = 'elicitationHost.savedInputs.v2';

interface SavedInput {
  readonly scope: string;
  readonly id: string;
}

function secretKey({ scope, id }: SavedInput): string {
  return `${KEY_PREFIX}${JSON.stringify([scope, id])}`;
}

export class InputResolver {
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly quickInput: OwnQuickInput,
  ) {}

  resolve = (input: InputDefinition): Promise<string | undefined> => {
    // Two servers that need the same input at once share one question.
    const key = secretKey(input);
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.lookUpOrAsk(input).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  };

  private async lookUpOrAsk(input: InputDefinition): Promise<string | undefined> {
    const saved = await this.secrets.get(secretKey(input));
    if (saved !== undefined) return saved;
    const value = await this.quickInput.input({
      title: oneLine(`MCP server configuration: \${input:${input.id}} (${input.scope})`),
      prompt: messageSafe(input.description),
      password: input.password,
      ignoreFocusOut: true,
      ...(input.default !== undefined && { value: input.default }),
    });
    if (value === undefined) return undefined;
    await this.secrets.store(secretKey(input), value);
    const others = this.saved().filter((s) => secretKey(s) !== secretKey(input));
    await this.state.update(INDEX_KEY, [...others, { scope: input.scope, id: input.id }]);
    return value;
  }

  private saved(): SavedInput[] {
    return this.state.get<SavedInput[]>(INDEX_KEY, []);
  }

  /**
   * Lets the person choose saved inputs (and, from `more`, other things kept for servers:
   * their sign-ins, and which extensions may call their tools) to forget; they are asked
   * again next time.
   */
  async forget(more: readonly Forgettable[] = []): Promise<void> {
    const saved = this.saved();
    if (saved.length === 0 && more.length === 0) {
      void showInfo('No server inputs, sign-ins or extension permissions are saved.');
      return;
    }
    const items: Array<vscode.QuickPickItem & { forget(): Promise<void> }> = [
      ...saved.map((input) => ({ label: iconSafe(input.id), description: iconSafe(input.scope), forget: () => this.forgetInput(input) })),
      ...more.map((thing) => ({ label: iconSafe(thing.label), description: iconSafe(thing.description), forget: thing.forget })),
    ];
    const chosen = await this.quickInput.pickMany(items, { title: 'Forget Saved Inputs', placeHolder: 'Choose the inputs, sign-ins and extension permissions to forget' });
    if (!chosen || chosen.length === 0) return;
    for (const item of chosen) await item.forget();
    const s = chosen.length === 1 ? '' : 's';
    void showInfo(`Forgot ${chosen.length} saved input${s}, sign-in${s} or extension permission${s}: inputs and sign-ins are asked for again when their servers restart, extensions on their next tool call.`);
  }

  private async forgetInput(input: SavedInput): Promise<void> {
    await this.secrets.delete(secretKey(input));
    await this.state.update(INDEX_KEY, this.saved().filter((s) => secretKey(s) !== secretKey(input)));
  }
}

/** Something else kept for a server that Forget Saved Inputs offers (a sign-in, an extension's permission). */
export interface Forgettable {
  readonly label: string;
  readonly description: string;
  forget(): Promise<void>;
}
