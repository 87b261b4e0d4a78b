/**
 * The one model every protocol is translated into: a request made of questions.
 * Shaped after the Agent Host Protocol's live input requests, so the input store,
 * every UI surface and every protocol edge speak the same language.
 */

export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';
export const TEXT_FORMATS: readonly TextFormat[] = ['email', 'uri', 'date', 'date-time'];

export interface QuestionBase {
  /** The property key in the requested schema; the key in answers and content. */
  readonly id: string;
  /** `title` when the server gave one, otherwise the key. */
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
  /** The field is `writeOnly`, or its key or title names a secret (elicitation/secret-hint.ts), which servers must not ask for in form mode. */
  readonly looksSecret: boolean;
}

export interface TextQuestion extends QuestionBase {
  readonly kind: 'text';
  readonly format?: TextFormat;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly defaultValue?: string;
}

export interface NumberQuestion extends QuestionBase {
  readonly kind: 'number' | 'integer';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly defaultValue?: number;
}

export interface BooleanQuestion extends QuestionBase {
  readonly kind: 'boolean';
  readonly defaultValue?: boolean;
}

export interface SelectOption {
  /** The value sent to the server. */
  readonly value: string;
  /** What the person reads: the option's title, or its value when it has none. */
  readonly label: string;
  readonly description?: string;
}

export interface SingleSelectQuestion extends QuestionBase {
  readonly kind: 'single-select';
  readonly options: readonly SelectOption[];
  readonly defaultValue?: string;
}

export interface MultiSelectQuestion extends QuestionBase {
  readonly kind: 'multi-select';
  readonly options: readonly SelectOption[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly defaultValue?: readonly string[];
}

export type Question =
  | TextQuestion
  | NumberQuestion
  | BooleanQuestion
  | SingleSelectQuestion
  | MultiSelectQuestion;

export type QuestionKind = Question['kind'];

/** The typed value of an answer, by kind (the Agent Host Protocol's answer values). */
export type AnswerValue =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'selected'; readonly value: string }
  | { readonly kind: 'selected-many'; readonly value: readonly string[] };

export type Answer =
  | { readonly state: 'draft' | 'submitted'; readonly value: AnswerValue }
  | { readonly state: 'skipped' };

export type Answers = Readonly<Record<string, Answer>>;

/** The answer value kind each question kind takes. */
export const ANSWER_KIND_FOR: Readonly<Record<QuestionKind, AnswerValue['kind']>> = {
  text: 'text',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  'single-select': 'selected',
  'multi-select': 'selected-many',
};

/** The values MCP allows in an accepted form's content. */
export type ContentValue = string | number | boolean | string[];
export type Content = Record<string, ContentValue>;

export type ElicitAction = 'accept' | 'decline' | 'cancel';

export interface ElicitResult {
  action: ElicitAction;
  content?: Content;
}

/** A parsed form: the questions in the server's property order. */
export interface FormModel {
  readonly questions: readonly Question[];
}
