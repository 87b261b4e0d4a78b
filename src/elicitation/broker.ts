/**
 * The broker: every question, whatever protocol brought it, becomes an InputRequest in
 * the store, is put to the person through the Prompter port, and comes back as a result
 * that has been checked against what the server asked for. It knows nothing of VS Code
 * or of transports.
 */
import { type AnswerOrigin, NONE_CHANGED, refusedFrom } from './answer-origin';
import type { Answers, Content, ElicitAction, ElicitResult, FormModel } from './model';
import { choosePresentation, type FileChange, type InputRequest, type OwnAnswerPair, type PermissionRecord, type Presentation, type RequestSource, type WholeInput } from './request';
import { LIMITS } from './limits';
import { InvalidSchemaError, overLimit, parseRequestedSchema, type SchemaParseResult } from './schema';
import { LruCache, schemaKey } from './schema-cache';
import type { InputStore } from './store';
import { checkUrl } from './url-check';
import { buildContent, type FieldError, toAnswerValue } from './validation';

/** What the person did, as a UI surface reports it. */
export type Outcome =
  | { readonly action: 'accept'; readonly answers?: Answers }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

export interface AskOptions {
  readonly presentation: Presentation;
  /** Fires when nobody waits for the answer any more; the surface must close. */
  readonly signal: AbortSignal;
  /** Why the previous answer was refused, when the surface is asked again. */
  readonly errors?: readonly FieldError[];
}

/** The port every UI (VS Code, a terminal, a test script) implements. */
export interface Prompter {
  ask(request: InputRequest, options: AskOptions): Promise<Outcome>;
}

export interface FormParams {
  readonly mode?: 'form';
  readonly message: string;
  readonly requestedSchema: unknown;
}

export interface UrlParams {
  readonly mode: 'url';
  readonly message: string;
  readonly url: string;
  readonly elicitationId?: string;
}

export interface ElicitContext {
  readonly source: RequestSource;
  /** Fires when the server cancels, the request times out or the connection closes. */
  readonly signal: AbortSignal;
  /** Fill fields left empty with their defaults (the client's `applyDefaults`). */
  readonly applyDefaults: boolean;
  /** Ask in the form, whatever the question's shape (a round of the draft input-required shape is one form). */
  readonly asForm?: boolean;
  /**
   * Calls of this server in flight now. Each may wait on a question of its own (agents
   * calling through the gateway at once), so the per-server cap is at least this: the
   * calls were made by the person or their agents, not by the server.
   */
  readonly callsInFlight?: number;
  /** Told the request as soon as it exists, before it is shown (an extension's live request follows it). */
  readonly onRequest?: (request: InputRequest) => void;
  /** Drafts to start from, by question id, and whose they are (an extension's live request, an agent host's, may bring answers). */
  readonly drafts?: { readonly from: AnswerOrigin; readonly answers: Answers };
  /** A rule across questions the schema cannot say (one of two answered); refusals are shown beside their fields. */
  readonly checkAnswers?: (answers: Answers) => readonly FieldError[];
  /** The whole of what is approved, when the message shows only part of it (set by our own code, never by a server). */
  readonly whole?: WholeInput;
  /** Selects that take the person's own answer in a text question of its own (a live request's, set by our own code). */
  readonly ownAnswers?: readonly OwnAnswerPair[];
  /** The files the approval would change (an agent's edit; set by our own code, never by a server). */
  readonly changes?: readonly FileChange[];
  /** The question is a permission: what its choices do, for the History (set by our own code, never by a server). */
  readonly permission?: PermissionRecord;
}

/** Final check of accepted content against the original schema (ajv, host side). */
export type ContentCheck = (requestedSchema: Record<string, unknown>, content: Content) => string[] | Promise<string[]>;

export interface BrokerOptions {
  readonly store: InputStore;
  readonly prompter: Prompter;
  readonly checkContent: ContentCheck;
  readonly forceForm: () => boolean;
  /** Open requests one server may have before further ones are refused. */
  readonly maxOpenPerServer?: number;
  /** A URL-mode link that is not a web page, or not reviewable, was refused (answered decline). */
  readonly onLinkRefused?: (source: RequestSource, url: string, reason: string) => void;
  /** The person muted this source: its questions are declined unseen, before anything else. */
  readonly isMuted?: (source: RequestSource) => boolean;
  readonly now?: () => number;
}

export class TooManyRequestsError extends Error {}
export class AnswerCheckError extends Error {}

const DEFAULT_MAX_OPEN_PER_SERVER = 10;
/** Schemas kept, parsed or refused: far more than the distinct questions a session's servers ask. */
const PARSED_SCHEMAS_KEPT = 64;

let nextId = 0;

/** Why a surface closes once its request is finished: one Error for all (a stack trace per question is measurable). */
const FINISHED = new Error('the request is finished');

function submittedAnswers(request: InputRequest, content: Content): Answers {
  return Object.fromEntries(
    request.questions
      .filter((q) => Object.prototype.hasOwnProperty.call(content, q.id))
      .map((q) => [q.id, { state: 'submitted' as const, value: toAnswerValue(q, content[q.id]) }]),
  );
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.message) return reason.message;
  if (typeof reason === 'string' && reason) return reason;
  return 'the request was cancelled';
}

/** Resolves with the outcome, or with `undefined` as soon as `signal` fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export class Broker {
  private readonly maxOpenPerServer: number;
  private readonly now: () => number;
  private readonly parsedSchemas = new LruCache<SchemaParseResult>(PARSED_SCHEMAS_KEPT);

  constructor(private readonly options: BrokerOptions) {
    this.maxOpenPerServer = options.maxOpenPerServer ?? DEFAULT_MAX_OPEN_PER_SERVER;
    this.now = options.now ?? Date.now;
  }

  /**
   * Puts a form or URL elicitation to the person. Throws InvalidSchemaError for a schema
   * outside the elicitation subset (the caller answers -32602), TooManyRequestsError for a
   * flooding server. Resolves with `cancel` when `ctx.signal` fires first, or has already.
   */
  async elicit(params: FormParams | UrlParams, ctx: ElicitContext): Promise<ElicitResult> {
    if (this.options.isMuted?.(ctx.source)) return { action: 'decline' };
    // The cheap refusals first: a flooding server costs us no parsing.
    const open = this.options.store.state.requests.filter(
      (r) => r.status === 'open' && r.request.source.server === ctx.source.server,
    );
    if (open.length >= Math.max(this.maxOpenPerServer, ctx.callsInFlight ?? 0)) {
      throw new TooManyRequestsError(
        `${ctx.source.server} already has ${open.length} questions waiting for an answer; answer or dismiss those first`,
      );
    }
    if (typeof params.message === 'string' && params.message.length > LIMITS.messageChars) {
      throw new InvalidSchemaError([{ path: 'message', message: overLimit(params.message.length, LIMITS.messageChars, 'character', 'for a message') }]);
    }
    if (params.mode === 'url') {
      // Links that are not web pages never reach the person: the server hears no.
      const check = checkUrl(params.url);
      if (!check.ok) {
        this.options.onLinkRefused?.(ctx.source, params.url, check.reason);
        return { action: 'decline' };
      }
    }
    const request = this.toRequest(params, ctx);
    return this.run(request, params.mode === 'url' ? undefined : (params.requestedSchema as Record<string, unknown>), ctx);
  }

  private toRequest(params: FormParams | UrlParams, ctx: ElicitContext): InputRequest {
    const { source, whole, changes, permission } = ctx;
    const base = { id: `input-${++nextId}`, source, message: params.message, createdAt: this.now() };
    if (params.mode === 'url') return { ...base, mode: 'url', url: params.url, questions: [] };
    const { questions } = this.parse(params.requestedSchema);
    // Only pairs the questions bear out: a select, then the text question that holds its own answer.
    const ownAnswers = ctx.ownAnswers?.filter((pair) => {
      const at = questions.findIndex((q) => q.id === pair.selectId);
      const [select, own] = [questions[at], questions[at + 1]];
      return (select?.kind === 'single-select' || select?.kind === 'multi-select') && own?.kind === 'text' && own.id === pair.ownId;
    });
    return { ...base, mode: 'form', questions, ...(whole && { whole }), ...(ownAnswers?.length && { ownAnswers }), ...(changes && changes.length > 0 && { changes }), ...(permission && { permission }) };
  }

  /** Refusals are kept too: a server that repeats a bad schema is refused at the cost of a lookup. */
  private parse(requestedSchema: unknown): FormModel {
    let result: SchemaParseResult | undefined;
    if (typeof requestedSchema !== 'object' || requestedSchema === null) result = parseRequestedSchema(requestedSchema);
    else {
      const key = schemaKey(requestedSchema);
      result = this.parsedSchemas.get(key);
      if (!result) {
        result = parseRequestedSchema(requestedSchema);
        // An oversized schema is refused by measuring it, the cost of the key alone; kept, its
        // text would be the key, and a few dozen of them would hold the memory of a gigabyte.
        if (key.length <= LIMITS.schemaChars) this.parsedSchemas.set(key, result);
      }
    }
    if (!result.ok) throw new InvalidSchemaError(result.problems);
    return result.form;
  }

  private async run(
    request: InputRequest,
    requestedSchema: Record<string, unknown> | undefined,
    ctx: ElicitContext,
  ): Promise<ElicitResult> {
    const { store, prompter } = this.options;
    // Already over (the person stopped the turn a moment before the question came): an
    // abort listener would never fire, so the question would stay open with nobody waiting.
    // It ends as cancel without ever being shown.
    if (ctx.signal.aborted) return { action: 'cancel' };
    store.dispatch({ type: 'requested', request });
    if (ctx.drafts) for (const [questionId, answer] of Object.entries(ctx.drafts.answers)) {
      // A draft the rule keeps out (a secret's, from anyone but the person) is left out, not refused; any other refusal is the asker's mistake.
      const question = request.questions.find((q) => q.id === questionId);
      if (question && refusedFrom(ctx.drafts.from, question, NONE_CHANGED) !== undefined) continue;
      const drafted = store.dispatch({ type: 'answerChanged', requestId: request.id, questionId, answer, origin: ctx.drafts.from });
      if (!drafted.ok) {
        this.finish(request.id, 'cancel');
        throw new InvalidSchemaError([{ path: `answers.${questionId}`, message: drafted.reason }]);
      }
    }
    ctx.onRequest?.(request);
    const presentation = choosePresentation(request, { forceForm: ctx.asForm === true || this.options.forceForm() });
    // The surface closes when the server stops waiting, and when we finish for any other reason.
    const done = new AbortController();
    const stop = (): void => done.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', stop, { once: true });
    let errors: readonly FieldError[] | undefined;
    try {
      for (;;) {
        const outcome = await untilAborted(prompter.ask(request, { presentation, signal: done.signal, ...(errors && { errors }) }), done.signal);
        if (outcome === undefined) {
          store.dispatch({ type: 'abandoned', requestId: request.id, reason: abortReason(ctx.signal) });
          return { action: 'cancel' };
        }
        if (outcome.action !== 'accept' || request.mode === 'url') {
          store.dispatch({ type: 'completed', requestId: request.id, response: outcome.action });
          return { action: outcome.action };
        }
        const answers = outcome.answers ?? {};
        const built = buildContent({ questions: request.questions }, answers, { applyDefaults: ctx.applyDefaults });
        if (!built.ok) {
          // A surface that hands over invalid answers is asked again, never believed.
          errors = built.errors;
          continue;
        }
        const refused = ctx.checkAnswers?.(answers) ?? [];
        if (refused.length > 0) {
          errors = refused;
          continue;
        }
        const complaints = await this.options.checkContent(requestedSchema!, built.content);
        if (complaints.length > 0) {
          this.finish(request.id, 'cancel');
          throw new AnswerCheckError(`the answer did not pass the schema check: ${complaints.join('; ')}`);
        }
        // The store records what was sent: defaults filled in count as submitted answers.
        const sent = submittedAnswers(request, built.content);
        const result = store.dispatch({ type: 'completed', requestId: request.id, response: 'accept', answers: { ...answers, ...sent } });
        if (!result.ok) throw new AnswerCheckError(result.reason);
        return { action: 'accept', content: built.content };
      }
    } catch (error) {
      this.finish(request.id, 'cancel');
      throw error;
    } finally {
      ctx.signal.removeEventListener('abort', stop);
      done.abort(FINISHED);
    }
  }

  private finish(requestId: string, response: ElicitAction): void {
    // Refused when already finished: that is fine, the point is that it is not left open.
    this.options.store.dispatch({ type: 'completed', requestId, response });
  }
}
