/**
 * What was asked and how it ended: one entry per finished request, newest first, bounded.
 * It follows the input store, so every asker lands here (servers, the gateway's agents,
 * extensions), and requests that were abandoned stay visible, as the Agent Host Protocol
 * keeps them. A permission's entry says what was chosen (allowed once, allowed always,
 * refused, refused always), whoever asked it. Secret-looking answers are masked when the entry is made, and their values
 * wherever else they would be kept (a tool result that echoes one, a later question that
 * quotes it: elicitation/secret-mask.ts): they are never kept, shown or stored in clear.
 * Free of `vscode`: the UI shows and persists it.
 */
import { chosenWords } from './permission-choices';
import { DECISION_FIELD } from './permission-text';
import type { RequestSource } from './request';
import { isSecretField } from './secret-hint';
import { SecretMask } from './secret-mask';
import { shownAnswer } from './shown-answer';
import { findRequest, type InputStore, type RequestState, type RequestStatus } from './store';
import { fromAnswerValue, ownAnswer } from './validation';
import { isRecord } from '../base/is-record';

export type HistoryOutcome =
  | 'accepted'
  | 'declined'
  | 'cancelled'
  | 'withdrawn'
  | 'answered elsewhere'
  | 'abandoned'
  | 'timed out'
  // A permission, by what was chosen.
  | 'allowed once'
  | 'allowed always'
  | 'refused'
  | 'refused always';

export interface HistoryAnswer {
  /** The question's title. */
  readonly question: string;
  /** The answer as the person would read it; masked for secret-looking questions. */
  readonly answer: string;
}

export interface HistoryEntry {
  /** The entry's own id: request ids start again in every window, entries outlive windows. */
  readonly id: string;
  readonly source: RequestSource;
  readonly mode: 'form' | 'url';
  readonly message: string;
  /** The link of a URL-mode request. */
  readonly url?: string;
  readonly askedAt: number;
  readonly endedAt: number;
  readonly outcome: HistoryOutcome;
  /** Why it ended without an answer (withdrawn, abandoned, timed out). */
  readonly reason?: string;
  /** What was sent, for an accepted form. */
  readonly answers: readonly HistoryAnswer[];
  /** The result of the tool call the person ran, where there is one (clipped). */
  readonly result?: string;
}

/** Entries kept (in the window and in the workspace's storage). */
export const HISTORY_KEPT = 200;
/** How much of a tool result an entry keeps. */
export const RESULT_KEPT_CHARS = 4000;

/** How an abandoned request ended, from the reason its asker gave (see mcp/errors.ts, mcp/connection/elicit-bridge.ts). */
export function outcomeOf(status: Exclude<RequestStatus, 'open'>, reason?: string): HistoryOutcome {
  if (status !== 'abandoned') return status;
  if (reason && /^no answer within \d+ s$/.test(reason)) return 'timed out';
  if (reason && / withdrew the question/.test(reason)) return 'withdrawn';
  // An agent host's question another client answered first (src/ahp/inbox.ts).
  if (reason && /^answered in another client\b/.test(reason)) return 'answered elsewhere';
  // A background task's question (mcp/connection/tasks/): its TTL ran out, or the server ended it.
  if (reason && /^the task's time to live ran out /.test(reason)) return 'timed out';
  if (reason && / cancelled the task this question belonged to$| no longer asks this question | no longer knows the task /.test(reason)) return 'withdrawn';
  return 'abandoned';
}

/**
 * How a permission ended, by what was chosen: the choice's kind (elicitation/permission.ts
 * records what each does), a decline refused, and a dismissal refused where it answers a
 * refusal (saying it was dismissed); otherwise (an abandoned one, a dismissal that decides
 * nothing) as any request ended.
 */
function permissionEnding(state: RequestState): { readonly outcome: HistoryOutcome; readonly reason?: string } | undefined {
  const { request } = state;
  if (request.mode !== 'form' || !request.permission) return undefined;
  switch (state.status) {
    case 'accepted': {
      const answer = ownAnswer(state.answers, DECISION_FIELD);
      const chosen = answer?.state === 'submitted' ? fromAnswerValue(answer.value) : undefined;
      const choice = request.permission.choices.find((c) => c.id === chosen);
      return choice && { outcome: chosenWords(choice) };
    }
    case 'declined':
      return { outcome: 'refused' };
    case 'cancelled':
      return request.permission.dismissal === 'refuses' ? { outcome: 'refused', reason: 'dismissed' } : undefined;
    default:
      return undefined;
  }
}

/** The values of a finished request's typed secret answers (not kept: the History masks them). */
export function secretAnswers(state: RequestState): string[] {
  if (state.request.mode !== 'form' || state.status !== 'accepted') return [];
  const values: string[] = [];
  for (const question of state.request.questions) {
    const answer = ownAnswer(state.answers, question.id);
    if (answer?.state === 'submitted' && isSecretField(question)) values.push(String(fromAnswerValue(answer.value)));
  }
  return values;
}

/** The entry with every text it holds masked (not its source: names of servers, tools and agents, which results are matched by). */
function maskedEntry(entry: HistoryEntry, mask: SecretMask): HistoryEntry {
  if (!mask.active) return entry;
  return {
    ...entry,
    message: mask.text(entry.message),
    ...(entry.url !== undefined && { url: mask.text(entry.url) }),
    ...(entry.reason !== undefined && { reason: mask.text(entry.reason) }),
    answers: entry.answers.map((a) => ({ question: mask.text(a.question), answer: mask.text(a.answer) })),
    ...(entry.result !== undefined && { result: mask.text(entry.result) }),
  };
}

/** The entry for a finished request, its secret answers masked wherever they appear in it. */
export function toHistoryEntry(state: RequestState, endedAt: number): HistoryEntry {
  const { request } = state;
  if (state.status === 'open') throw new Error(`request ${request.id} is still open`);
  const { server, requester, tool, agent, session, destructive, personStarted, background } = request.source;
  const source: RequestSource = {
    server,
    ...(requester && { requester }),
    ...(tool && { tool }),
    ...(agent && { agent }),
    ...(session !== undefined && { session }),
    ...(destructive && { destructive }),
    ...(personStarted && { personStarted }),
    ...(background && { background }),
  };
  const answers: HistoryAnswer[] = [];
  if (request.mode === 'form' && state.status === 'accepted') {
    for (const question of request.questions) {
      const answer = ownAnswer(state.answers, question.id);
      if (answer?.state !== 'submitted') continue;
      answers.push({ question: question.title, answer: shownAnswer(question, fromAnswerValue(answer.value)) });
    }
  }
  const permission = permissionEnding(state);
  const reason = permission?.reason ?? state.reason;
  const entry: HistoryEntry = {
    id: globalThis.crypto.randomUUID(),
    source,
    mode: request.mode,
    message: request.message,
    ...(request.mode === 'url' && { url: request.url }),
    askedAt: request.createdAt,
    endedAt,
    outcome: permission?.outcome ?? outcomeOf(state.status, state.reason),
    ...(reason !== undefined && { reason }),
    answers,
  };
  return maskedEntry(entry, new SecretMask(secretAnswers(state)));
}

export interface ResultMatch {
  readonly server: string;
  readonly tool: string;
  /** The agent whose call it was (through the gateway); absent: the person's own (Run Tool). */
  readonly agent?: string;
  /** When the call started: only its questions get the result. */
  readonly since: number;
}

/** A call's result in words; a function is asked only if an entry takes it (most calls ask nothing). */
export type ResultText = string | (() => string);
/** Where a call's result goes: the History, which keeps it with the call's questions. */
export type ResultSink = (match: ResultMatch, text: ResultText) => void;

export class History {
  private list: HistoryEntry[];
  private readonly listeners = new Set<() => void>();
  /**
   * The secret answers of this window's entries, by entry id, so that what reaches the
   * History after them (the call's result, a later question) is masked too. In memory only,
   * and only while their entry is listed: what is stored is the masked entries.
   */
  private readonly secrets = new Map<string, readonly string[]>();
  private mask = new SecretMask();

  constructor(
    restored: readonly HistoryEntry[] = [],
    private readonly now: () => number = Date.now,
  ) {
    this.list = restored.slice(0, HISTORY_KEPT);
  }

  /** Newest first. */
  get entries(): readonly HistoryEntry[] {
    return this.list;
  }

  find(id: string): HistoryEntry | undefined {
    return this.list.find((e) => e.id === id);
  }

  /** Records each request of the store as it finishes; returns the function that stops. */
  follow(store: InputStore): () => void {
    return store.subscribe((state, action) => {
      if (action.type !== 'completed' && action.type !== 'abandoned') return;
      const finished = findRequest(state, action.requestId);
      // Run Tool's own questions (the arguments) are the person's, not an agent's: their answers are in the call's result.
      // The store refuses any action on a finished request, so each request finishes here once.
      if (!finished || finished.status === 'open' || finished.request.source.ownQuestion) return;
      this.add(toHistoryEntry(finished, this.now()), secretAnswers(finished));
    });
  }

  /** Adds the entry, masked with every secret answer known (`secrets`: its own, kept to mask what comes after it). */
  add(entry: HistoryEntry, secrets: readonly string[] = []): void {
    if (secrets.length > 0) {
      this.secrets.set(entry.id, secrets);
      this.mask = new SecretMask([...this.secrets.values()].flat());
    }
    this.list = [maskedEntry(entry, this.mask), ...this.list].slice(0, HISTORY_KEPT);
    this.forgetUnlisted();
    this.changed();
  }

  /** Gives the questions of a call its result (clipped): the person's (Run Tool) or an agent's; returns how many got it. */
  attachResult(match: ResultMatch, result: ResultText): number {
    let text: string | undefined;
    const clipped = (): string => {
      // Masked before it is clipped: a secret cut in two by the clip would leave its start.
      const full = this.mask.text(typeof result === 'function' ? result() : result);
      return full.length > RESULT_KEPT_CHARS ? `${full.slice(0, RESULT_KEPT_CHARS)}… (${full.length - RESULT_KEPT_CHARS} more characters)` : full;
    };
    let attached = 0;
    this.list = this.list.map((e) => {
      const whose = match.agent === undefined ? e.source.personStarted === true && e.source.agent === undefined : e.source.agent === match.agent;
      if (e.result !== undefined || !whose || e.source.server !== match.server || e.source.tool !== match.tool || e.askedAt < match.since) return e;
      attached++;
      text ??= clipped();
      return { ...e, result: text };
    });
    if (attached > 0) this.changed();
    return attached;
  }

  clear(): void {
    this.list = [];
    this.forgetUnlisted();
    this.changed();
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Secrets of entries no longer listed are forgotten. */
  private forgetUnlisted(): void {
    if (this.secrets.size === 0) return;
    const listed = new Set(this.list.map((e) => e.id));
    const before = this.secrets.size;
    for (const id of this.secrets.keys()) if (!listed.has(id)) this.secrets.delete(id);
    if (this.secrets.size !== before) this.mask = new SecretMask([...this.secrets.values()].flat());
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

const OUTCOMES: readonly HistoryOutcome[] = ['accepted', 'declined', 'cancelled', 'withdrawn', 'answered elsewhere', 'abandoned', 'timed out', 'allowed once', 'allowed always', 'refused', 'refused always'];

const isString = (value: unknown): value is string => typeof value === 'string';
const optionalString = (value: unknown): boolean => value === undefined || isString(value);

/** Entries read back from storage: anything not shaped like an entry is dropped. */
export function restoreHistory(data: unknown): HistoryEntry[] {
  if (!Array.isArray(data)) return [];
  return data.filter((e): e is HistoryEntry =>
    isRecord(e) &&
    isString(e.id) &&
    isRecord(e.source) &&
    isString(e.source.server) &&
    (e.mode === 'form' || e.mode === 'url') &&
    isString(e.message) &&
    optionalString(e.url) &&
    optionalString(e.reason) &&
    optionalString(e.result) &&
    Number.isFinite(e.askedAt) &&
    Number.isFinite(e.endedAt) &&
    OUTCOMES.includes(e.outcome as HistoryOutcome) &&
    Array.isArray(e.answers) &&
    e.answers.every((a) => isRecord(a) && isString(a.question) && isString(a.answer)),
  ).slice(0, HISTORY_KEPT);
}
