/**
 * A live input request in the core's own words: the Agent Host Protocol's shape (questions
 * with stable ids, answers kept while the request is open), which the extension API's
 * `requestInput` takes from other extensions and the agent host inbox builds from a host's
 * request. live-request.ts reads one into the broker's terms and back, live-ask.ts puts one
 * to the person. The published API (elicitation-host.d.ts, which extensions copy) spells
 * these again for its readers; src/api/contract.ts holds the two spellings together, so the
 * core never imports the file. Types only.
 */

/** A live request as its asker makes one. */
export interface LiveRequest {
  readonly message: string;
  /** A link to open, instead of questions. */
  readonly url?: string;
  readonly questions?: readonly LiveQuestion[];
  /** Existing answers by question id (drafts to start from). */
  readonly answers?: Readonly<Record<string, LiveAnswer>>;
}

interface LiveQuestionBase {
  /** Stable: the key of its answer. */
  readonly id: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

export interface LiveOption {
  readonly id: string;
  readonly label: string;
  /** An agent host's option may say more of itself (the API's options have no description). */
  readonly description?: string;
}

export type LiveQuestion =
  | (LiveQuestionBase & { readonly kind: 'text'; readonly format?: 'email' | 'uri' | 'date' | 'date-time'; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly default?: string })
  | (LiveQuestionBase & { readonly kind: 'number' | 'integer'; readonly minimum?: number; readonly maximum?: number; readonly default?: number })
  | (LiveQuestionBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (LiveQuestionBase & { readonly kind: 'single-select'; readonly options: readonly LiveOption[]; readonly default?: string; readonly allowFreeformInput?: boolean })
  | (LiveQuestionBase & { readonly kind: 'multi-select'; readonly options: readonly LiveOption[]; readonly minItems?: number; readonly maxItems?: number; readonly default?: readonly string[]; readonly allowFreeformInput?: boolean });

/**
 * An answer's value. A select question that takes the person's own answer carries it as
 * `freeformValues` beside the chosen option(s), or, typed with no option chosen, as a
 * single-select's `text` answer (a multi-select's with `value: []`): freeform.ts.
 */
export type LiveAnswerValue =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'selected'; readonly value: string; readonly freeformValues?: readonly string[] }
  | { readonly kind: 'selected-many'; readonly value: readonly string[]; readonly freeformValues?: readonly string[] };

export type LiveAnswer = { readonly state: 'draft' | 'submitted'; readonly value: LiveAnswerValue } | { readonly state: 'skipped' };
