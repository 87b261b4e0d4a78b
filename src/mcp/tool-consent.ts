/**
 * Whether another extension may call a configured server's tools, which run with the
 * person's saved `${input:}` values and sign-ins. The person is asked once per extension
 * and server (Allow, Deny), and the answer is kept for the workspace until they forget it
 * (Forget Saved Inputs…); a tool annotated destructive is confirmed on every call, as
 * VS Code confirms a tool that is not read-only. Closing the question refuses this call
 * only. No `vscode` here: the dialogs and the workspace's memory are ports.
 */
import { errorMessage } from '../base/error-message';

/** The code of a call the person refused (denied the extension, or declined this call). */
export const REFUSED_BY_PERSON = -32001;

/** An installed extension, as it asked: its id and the name shown for it. */
export interface ConsentExtension {
  readonly id: string;
  readonly name: string;
}

/** A configured server: its id (which file defines it, and its name) and the name shown. */
export interface ConsentServer {
  readonly id: string;
  readonly name: string;
}

export interface ConsentTool {
  readonly name: string;
  readonly title?: string;
  readonly destructive: boolean;
}

/** The questions, asked in the UI. */
export interface ConsentDialogs {
  /** Undefined: the person closed the question without choosing. */
  askToAllow(extension: ConsentExtension, server: ConsentServer): Promise<'allow' | 'deny' | undefined>;
  /** True only when the person chose to run it. */
  confirmCall(extension: ConsentExtension, server: ConsentServer, tool: ConsentTool, args: Record<string, unknown>): Promise<boolean>;
}

/** The workspace's memory (VS Code's `workspaceState` has this shape). */
export interface ConsentMemory {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

interface Kept {
  readonly extension: ConsentExtension;
  readonly server: ConsentServer;
  readonly allowed: boolean;
}

/** Something kept that Forget Saved Inputs offers. */
export interface ForgettableConsent {
  readonly label: string;
  readonly description: string;
  forget(): Promise<void>;
}

const KEY = 'elicitationHost.extensionToolConsents.v1';

/** VS Code compares extension ids without case. */
const keyOf = (extensionId: string, serverId: string): string => JSON.stringify([extensionId.toLowerCase(), serverId]);

/** What a call needs before it runs, given the answer kept for its extension and server. */
export function checksFor(kept: boolean | undefined, tool: Pick<ConsentTool, 'destructive'> | undefined): { readonly ask: boolean; readonly refused: boolean; readonly confirmEach: boolean } {
  return { ask: kept === undefined, refused: kept === false, confirmEach: tool?.destructive === true };
}

/** A refusal, as the API rejects with it: a code and a message naming the extension, the server and who refused. */
export class RefusedCallError extends Error {
  readonly code = REFUSED_BY_PERSON;
}

const quoted = (text: string): string => `"${text}"`;

export class ToolConsents {
  /** Questions on screen, by extension and server: calls that come meanwhile wait for the same answer. */
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(
    private readonly memory: ConsentMemory,
    private readonly dialogs: ConsentDialogs,
  ) {}

  private kept(): readonly Kept[] {
    const value = this.memory.get<unknown>(KEY, []);
    return Array.isArray(value) ? (value as Kept[]) : [];
  }

  private keptFor(extension: ConsentExtension, server: ConsentServer): boolean | undefined {
    return this.kept().find((k) => keyOf(k.extension.id, k.server.id) === keyOf(extension.id, server.id))?.allowed;
  }

  private async keep(extension: ConsentExtension, server: ConsentServer, allowed: boolean | undefined): Promise<void> {
    const others = this.kept().filter((k) => keyOf(k.extension.id, k.server.id) !== keyOf(extension.id, server.id));
    await this.memory.update(KEY, allowed === undefined ? others : [...others, { extension, server, allowed }]);
  }

  /** Resolves when the extension may call the server's tools; rejects with a RefusedCallError when it may not. */
  async admit(extension: ConsentExtension, server: ConsentServer): Promise<void> {
    const { ask, refused } = checksFor(this.keptFor(extension, server), undefined);
    if (refused) throw new RefusedCallError(`The person denied the extension ${quoted(extension.name)} the tools of the MCP server ${quoted(server.name)} in this workspace (Elicitation Host: Forget Saved Inputs… takes that back).`);
    if (!ask) return;
    const key = keyOf(extension.id, server.id);
    let answer = this.asking.get(key);
    if (!answer) {
      answer = this.ask(extension, server).finally(() => this.asking.delete(key));
      this.asking.set(key, answer);
    }
    if (!(await answer)) throw new RefusedCallError(`The person did not allow the extension ${quoted(extension.name)} to call the tools of the MCP server ${quoted(server.name)}.`);
  }

  private async ask(extension: ConsentExtension, server: ConsentServer): Promise<boolean> {
    let choice: 'allow' | 'deny' | undefined;
    try {
      choice = await this.dialogs.askToAllow(extension, server);
    } catch (error) {
      // Nobody could be asked (VS Code refuses dialogs while extension tests run): not allowed, nothing kept.
      const why = errorMessage(error);
      throw new RefusedCallError(`The person could not be asked whether the extension ${quoted(extension.name)} may call the tools of the MCP server ${quoted(server.name)} (${why}), so it may not.`);
    }
    // Closed without a choice: this call is refused, and the next one asks again.
    if (choice !== undefined) await this.keep(extension, server, choice === 'allow');
    return choice === 'allow';
  }

  /** Resolves when the call may run: at once, or once the person confirmed a destructive tool's call. */
  async confirm(extension: ConsentExtension, server: ConsentServer, tool: ConsentTool, args: Record<string, unknown>): Promise<void> {
    if (!checksFor(true, tool).confirmEach) return;
    if (await this.dialogs.confirmCall(extension, server, tool, args).catch(() => false)) return;
    throw new RefusedCallError(`The person declined the extension ${quoted(extension.name)}'s call of ${quoted(tool.title ?? tool.name)}, a destructive tool of the MCP server ${quoted(server.name)}.`);
  }

  /** The answers kept, for Forget Saved Inputs: forgotten, the extension is asked again on its next call. */
  forgettable(): ForgettableConsent[] {
    return this.kept().map(({ extension, server, allowed }) => ({
      label: `Extension: ${extension.name} ${allowed ? 'may call' : 'may not call'} the tools of ${server.name}`,
      description: extension.id,
      forget: () => this.keep(extension, server, undefined),
    }));
  }
}
