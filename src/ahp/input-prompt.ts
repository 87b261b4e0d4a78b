/**
 * One of a host's open input requests, put to the person (elicitation/live-ask.ts: one
 * question a quick pick or an input box, several a form, a link the link prompt; the broker
 * chooses) and answered on the host as `inputCompleted`. Drafts go both ways, each with its
 * origin: what the person types is sent as `inputAnswerChanged` (state draft, ~300 ms after
 * the last keystroke per question); drafts and answers from other clients go into the store
 * as the remote client's, where the core's rule (elicitation/answer-origin.ts) keeps a
 * question the person changed, and a secret, theirs. A secret's draft is never sent: its value
 * goes only with Accept (live-ask.ts tells nobody its changes). A request withdrawn on the host
 * (answered elsewhere, its turn over) closes our prompt.
 */
import type { SameType } from '../base/same-type';
import type { Broker } from '../elicitation/broker';
import { askLive, type LiveAsk } from '../elicitation/live-ask';
import type { LiveAnswer, LiveOption, LiveQuestion, LiveRequest } from '../elicitation/live-model';
import type { ElicitAction } from '../elicitation/model';
import type { RequestSource } from '../elicitation/request';
import type { InputStore } from '../elicitation/store';
import type { AhpLog } from './ports';
import type { WireAnswer, WireInputRequest, WireOption, WireQuestion } from './wire/input-request';
import type { Naming } from './wire/names';
import { answerChangedAction, inputCompletedAction } from './wire/writes';

export const DRAFT_DEBOUNCE_MS = 300;

// A host's answers are the core's live answers as they are (the core's live request is shaped
// after AHP's): they go in and come out unconverted, which holds only while the two are the same.
export const WIRE_ANSWERS_ARE_LIVE: SameType<WireAnswer, LiveAnswer> = true;

export interface PromptDeps {
  readonly broker: Broker;
  readonly store: InputStore;
  readonly log: AhpLog;
  readonly applyDefaults: () => boolean;
}

/** The request in the core's live terms (elicitation/live-model.ts): titles, bounds and defaults renamed. */
function toQuestion(q: WireQuestion): LiveQuestion {
  const base = {
    id: q.id,
    title: q.title ?? (q.message !== '' ? q.message : q.id),
    ...(q.title !== undefined && q.message !== '' && { description: q.message }),
    ...(q.required === true && { required: true }),
  };
  // The host's recommendation is said in the label: preselecting it would choose for the person.
  const options = (list: readonly WireOption[]): LiveOption[] =>
    list.map((o) => ({ id: o.id, label: o.recommended ? `${o.label} (recommended)` : o.label, ...(o.description !== undefined && { description: o.description }) }));
  switch (q.kind) {
    case 'text':
      return { ...base, kind: 'text', ...(q.format && { format: q.format }), ...(q.min !== undefined && { minLength: q.min }), ...(q.max !== undefined && { maxLength: q.max }), ...(q.defaultValue !== undefined && { default: q.defaultValue }) };
    case 'number':
    case 'integer':
      return { ...base, kind: q.kind, ...(q.min !== undefined && { minimum: q.min }), ...(q.max !== undefined && { maximum: q.max }), ...(q.defaultValue !== undefined && { default: q.defaultValue }) };
    case 'boolean':
      return { ...base, kind: 'boolean', ...(q.defaultValue !== undefined && { default: q.defaultValue }) };
    case 'single-select':
      return { ...base, kind: 'single-select', options: options(q.options), ...(q.allowFreeformInput && { allowFreeformInput: true }), ...(q.defaultValue !== undefined && { default: q.defaultValue }) };
    case 'multi-select':
      return { ...base, kind: 'multi-select', options: options(q.options), ...(q.allowFreeformInput && { allowFreeformInput: true }), ...(q.min !== undefined && { minItems: q.min }), ...(q.max !== undefined && { maxItems: q.max }), ...(q.defaultValue !== undefined && { default: q.defaultValue }) };
  }
}

/** The answer's kind is one the question takes (a typed own answer too, where it allows one). */
export function answerFitsQuestion(q: WireQuestion, answer: WireAnswer): boolean {
  if (answer.state === 'skipped') return true;
  const { value } = answer;
  const freeform = (q.kind === 'single-select' || q.kind === 'multi-select') && q.allowFreeformInput === true;
  if ('freeformValues' in value && value.freeformValues !== undefined && !freeform) return false;
  switch (q.kind) {
    case 'text':
      return value.kind === 'text';
    case 'number':
    case 'integer':
      return value.kind === 'number';
    case 'boolean':
      return value.kind === 'boolean';
    case 'single-select':
      return value.kind === 'selected' || (freeform && value.kind === 'text');
    case 'multi-select':
      return value.kind === 'selected-many';
  }
}

function fittingAnswers(request: WireInputRequest, questions: readonly WireQuestion[]): Record<string, WireAnswer> {
  const out: Record<string, WireAnswer> = {};
  for (const q of questions) {
    const answer = Object.prototype.hasOwnProperty.call(request.answers, q.id) ? request.answers[q.id] : undefined;
    if (answer && answerFitsQuestion(q, answer)) Object.defineProperty(out, q.id, { value: answer, enumerable: true });
  }
  return out;
}

function liveRequest(request: WireInputRequest, questions: readonly WireQuestion[], message: string): LiveRequest {
  return { message, questions: questions.map(toQuestion), answers: fittingAnswers(request, questions) };
}

/** What the prompt asks of its channel: to send an action there. */
export type Send = (action: Record<string, unknown>) => void;

export class InputPrompt {
  private readonly withdrawn = new AbortController();
  private live: LiveAsk | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly deps: PromptDeps,
    private readonly channel: string,
    private readonly naming: Naming,
    private readonly request: WireInputRequest,
    private readonly source: RequestSource,
    private readonly send: Send,
  ) {}

  get ended(): boolean {
    return this.withdrawn.signal.aborted;
  }

  /** Asks; resolves when the person answered (and the host was told) or the request was withdrawn. Rejects with the broker's refusal. */
  async run(): Promise<ElicitAction | 'withdrawn'> {
    const { request } = this;
    const message = request.message ?? (request.questions.length === 1 ? request.questions[0].message : 'The agent asks:');
    if (request.url !== undefined) {
      // A link first (opened only on the person's click), then the questions that come with it.
      const link = await this.ask({ message, url: request.url });
      if (link === 'withdrawn' || link.response !== 'accept' || request.questions.length === 0) return this.complete(link);
    }
    return this.complete(await this.ask(liveRequest(request, request.questions, message)));
  }

  /** A draft or answer from another client (or the host), for one question: the store takes it, or says why not. */
  remoteAnswer(questionId: string, answer: WireAnswer | undefined): void {
    if (!this.live || this.ended) return;
    const question = this.request.questions.find((q) => q.id === questionId);
    if (!question || (answer && !answerFitsQuestion(question, answer))) return;
    const result = this.live.updateDraft(questionId, answer);
    if (!result.ok) this.deps.log.info(`a draft from another client for "${questionId.slice(0, 80)}" was not taken: ${result.reason.slice(0, 300)}`);
  }

  /** The host no longer asks it: our prompt closes with this reason (the History keeps it). */
  withdraw(reason: string): void {
    this.stopDrafts();
    this.withdrawn.abort(new Error(reason));
  }

  private async ask(request: LiveRequest): Promise<{ response: ElicitAction; answers: Record<string, LiveAnswer> } | 'withdrawn'> {
    if (this.ended) return 'withdrawn';
    const live = askLive(this.deps, request, { source: this.source, signal: this.withdrawn.signal, applyDefaults: this.deps.applyDefaults(), origin: 'remote-client' });
    this.live = live;
    // What came from the host is the host's already: only the changes made here are sent.
    const stop = live.onDidChangeAnswer((change) => {
      if (change.origin !== 'remote-client') this.draftChanged(change.questionId, change.answer);
    });
    try {
      const result = await live.completion;
      return this.ended ? 'withdrawn' : result;
    } finally {
      stop();
      this.stopDrafts();
    }
  }

  private draftChanged(questionId: string, answer: LiveAnswer | undefined): void {
    clearTimeout(this.timers.get(questionId));
    this.timers.set(questionId, setTimeout(() => {
      this.timers.delete(questionId);
      if (this.ended) return;
      // The person's draft as AHP's: a draft, whatever the surface called it.
      const draft: WireAnswer | undefined = answer === undefined || answer.state === 'skipped' ? answer : { state: 'draft', value: answer.value };
      this.send(answerChangedAction(this.naming, this.channel, this.request.id, questionId, draft));
    }, DRAFT_DEBOUNCE_MS));
  }

  private stopDrafts(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private complete(result: { response: ElicitAction; answers: Record<string, LiveAnswer> } | 'withdrawn'): ElicitAction | 'withdrawn' {
    if (result === 'withdrawn' || this.ended) return 'withdrawn';
    let { response } = result;
    let answers: Record<string, WireAnswer> | undefined;
    if (response === 'accept') {
      answers = {};
      for (const [id, answer] of Object.entries(result.answers)) if (answer.state !== 'draft') Object.defineProperty(answers, id, { value: answer, enumerable: true });
      // The broker holds required questions before Accept; a host must never be sent an accept it should refuse.
      const sent = answers;
      const missing = this.request.questions.filter((q) => q.required === true && (!Object.prototype.hasOwnProperty.call(sent, q.id) || sent[q.id].state !== 'submitted'));
      if (missing.length > 0) {
        this.deps.log.warn(`not accepting request ${this.request.id}: no submitted answer for ${missing.map((q) => q.id).join(', ')}; cancelled instead`);
        response = 'cancel';
        answers = undefined;
      }
    }
    this.send(inputCompletedAction(this.naming, this.channel, this.request.id, response, answers));
    return response;
  }
}
