/**
 * The API of the Elicitation Host extension (`elicitation-host.elicitation-host`), version 1,
 * for agents that live in other extensions: ask the person through the same prompts, queue,
 * status bar, pending list and history that MCP servers get, instead of writing your own.
 * Copy this file into your extension; then:
 *
 *   const host = vscode.extensions.getExtension<ElicitationHostApi>('elicitation-host.elicitation-host');
 *   const api = (await host?.activate())?.forExtension(context.extension.id);
 *   if (api && (await api.confirm({ question: 'Delete these 5 files?', destructive: true }))) { ... }
 *
 * Every question is shown as coming from your extension ("Extension: <display name>"),
 * never under an MCP server's name. Nothing mutable of the host is handed out.
 *
 * What the name shown proves: that an extension with the id given is installed (the name
 * is that extension's manifest display name). What it does not: VS Code does not tell us
 * which extension is calling, so any extension can pass another's id and be shown as it.
 */
import type { CancellationToken } from 'vscode';

export interface ElicitationHostApi {
  /** The API's version: a breaking change gets a new number. */
  readonly version: 1;
  /**
   * Questions and tool calls in the name of this extension: pass your own
   * `context.extension.id`. The id must be an installed extension's (else this throws an
   * `ElicitationRequestError`, code -32602); it is shown as that extension's manifest display
   * name (its manifest name when it has none), as plain text. That proves an installed
   * extension has this id, not that it is the one calling: VS Code does not say who calls.
   */
  forExtension(extensionId: string): ExtensionAsker;
  /** The configured MCP servers and their state (a copy). */
  servers(): ServerSummary[];
  /**
   * @deprecated Rejects with an `ElicitationRequestError` (code -32602): a tool call needs
   * the person's consent for the calling extension. Use `forExtension(id).callTool`.
   */
  callTool(server: string, tool: string, args?: Record<string, unknown>): Promise<unknown>;
}

export interface AskOptions {
  /** Withdraws the question: its prompt closes, and the answer is a cancel. */
  readonly token?: CancellationToken;
}

export interface ExtensionAsker {
  /**
   * A yes/no question. True only when the person explicitly accepts; decline, cancel, a
   * withdrawn question or a closed window give false (the safe default). A destructive one
   * is a modal dialog whose default button is Decline.
   */
  confirm(options: { readonly question: string; readonly destructive?: boolean } & AskOptions): Promise<boolean>;
  /**
   * MCP `elicitation/create` semantics exactly: a form (a flat `requestedSchema`) or a link
   * (`mode: "url"`), validated the same way. A schema outside the elicitation subset, or over
   * a limit, throws an `ElicitationRequestError` with code -32602 naming the field.
   */
  elicit(params: ElicitParams, options?: AskOptions): Promise<ElicitResult>;
  /**
   * An Agent Host Protocol live input request: questions with stable ids, optional existing
   * answers. The handle reports every answer change (draft, submitted, skipped) and the
   * completion; you can update drafts (the form and the quick input show the same drafts)
   * and withdraw the request. A question that asks for a secret (a password, a token, a key)
   * is the person's alone: its drafts are not reported, you cannot fill it, and its answer
   * comes only with an accepted completion.
   */
  requestInput(request: InputRequest, options?: AskOptions): InputRequestHandle;
  /**
   * Calls a configured MCP server's tool (starting the server if needed), with the inputs
   * and sign-in the person saved for it; its questions are asked in the UI, as for your
   * extension. The first call to a server asks the person ("The extension <name> wants to
   * call the tools of the MCP server <server>": Deny, Allow), before the server starts; the
   * answer is kept for the workspace until they forget it (Forget Saved Inputs…). A tool
   * annotated destructive is confirmed on every call, with its arguments shown. Resolves with
   * the tool's result (MCP `CallToolResult`). Rejects with an `ElicitationRequestError`:
   * code -32001 when the person denied your extension this server (now or earlier), closed
   * the question, or declined this call of a destructive tool; -32602 for an unknown server
   * or tool, or arguments that are not an object. The token cancels the call.
   */
  callTool(server: string, tool: string, args?: Record<string, unknown>, options?: AskOptions): Promise<unknown>;
}

export type ElicitParams =
  | { readonly mode?: 'form'; readonly message: string; readonly requestedSchema: Record<string, unknown> }
  | { readonly mode: 'url'; readonly message: string; readonly url: string; readonly elicitationId?: string };

export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Record<string, string | number | boolean | string[]>;
}

/** Thrown for a request the host refuses, with a JSON-RPC style code (-32602: invalid params; -32001: the person refused). */
export interface ElicitationRequestError extends Error {
  readonly name: 'ElicitationRequestError';
  readonly code: number;
}

export interface ServerSummary {
  readonly name: string;
  readonly state: string;
  readonly tools: readonly string[];
  readonly protocolVersion?: string;
  readonly capabilities?: readonly string[];
}

/** The Agent Host Protocol's `SessionInputRequest`, as a caller makes one. */
export interface InputRequest {
  readonly message: string;
  /** A link to open, instead of questions. */
  readonly url?: string;
  readonly questions?: readonly InputQuestion[];
  /** Existing answers by question id (drafts to start from). */
  readonly answers?: Readonly<Record<string, InputAnswer>>;
}

interface QuestionBase {
  /** Stable: the key of its answer. */
  readonly id: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

export interface SelectOption {
  readonly id: string;
  readonly label: string;
}

export type InputQuestion =
  | (QuestionBase & { readonly kind: 'text'; readonly format?: 'email' | 'uri' | 'date' | 'date-time'; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly default?: string })
  | (QuestionBase & { readonly kind: 'number' | 'integer'; readonly minimum?: number; readonly maximum?: number; readonly default?: number })
  | (QuestionBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (QuestionBase & { readonly kind: 'single-select'; readonly options: readonly SelectOption[]; readonly default?: string; readonly allowFreeformInput?: boolean })
  | (QuestionBase & { readonly kind: 'multi-select'; readonly options: readonly SelectOption[]; readonly minItems?: number; readonly maxItems?: number; readonly default?: readonly string[]; readonly allowFreeformInput?: boolean });

/**
 * A select question with `allowFreeformInput` also shows a box for the person's own answer:
 * what they type comes as `freeformValues` beside the chosen option(s) (several values
 * comma-separated for a multi-select), or, typed with no option chosen, as a `text` answer
 * of a single-select (a multi-select's then has `value: []`). A required one is answered by either.
 */
export type InputAnswerValue =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'selected'; readonly value: string; readonly freeformValues?: readonly string[] }
  | { readonly kind: 'selected-many'; readonly value: readonly string[]; readonly freeformValues?: readonly string[] };

export type InputAnswer = { readonly state: 'draft' | 'submitted'; readonly value: InputAnswerValue } | { readonly state: 'skipped' };

export interface InputAnswerChange {
  readonly questionId: string;
  /** Undefined: the answer was cleared. */
  readonly answer?: InputAnswer;
}

export interface InputCompletion {
  readonly response: 'accept' | 'decline' | 'cancel';
  /** The answers as they stood when it ended (submitted ones, for accept; a secret question's only then). */
  readonly answers: Readonly<Record<string, InputAnswer>>;
}

export interface InputRequestHandle {
  /** Every change of an answer: the person typing (drafts), submitting or skipping; your own updates too; never a secret question's. */
  onDidChangeAnswer(listener: (change: InputAnswerChange) => void): { dispose(): void };
  /** Resolves when the person answers, declines or dismisses it, or it is withdrawn (cancel). */
  readonly completion: Promise<InputCompletion>;
  /** Sets (or, without an answer, clears) one question's draft; false with the reason when refused (a secret question's, or one the person has changed since it opened: what they typed wins). */
  updateDraft(questionId: string, answer?: InputAnswer): { readonly ok: true } | { readonly ok: false; readonly reason: string };
  /** Withdraws the request (abandoned): its prompt closes; `completion` resolves as cancel. */
  abandon(): void;
}
