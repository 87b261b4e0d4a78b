/**
 * What was asked and how it ended: one entry per finished request, newest first, bounded.
 * It follows the input store, so every asker lands here (servers, the gateway's agents,
 * extensions), and requests that were abandoned stay visible, as the Agent Host Protocol
 * keeps them. Secret-looking answers are masked when the entry is made: they are never
 * kept, shown or stored in clear. Free of `vscode`: the UI shows and persists it.
 */
import type { RequestSource } from './request';
import { shownAnswer } from './shown-answer';
import { findRequest, type InputStore, type RequestState, type RequestStatus } from './store';
import { fromAnswerValue, ownAnswer } from './validation';
import { isRecord } from './is-record';

export type HistoryOutcome = 'accepted' | 'declined' | 'cancelled' | 'withdrawn' | 'abandoned' | 'timed out';

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

/** How an abandoned request ended, from the reason its asker gave (see mcp/errors.ts, mcp/elicit-bridge.ts). */
export function outcomeOf(status: Exclude<RequestStatus, 'open'>, reason?: string): HistoryOutcome {
  if (status !== 'abandoned') return status;
  if (reason && /^no answer within \d+ s$/.test(reason)) return 'timed out';
  if (reason && / withdrew the question/.test(reason)) return 'withdrawn';
  return 'abandoned';
}

/** The entry for a finished request. */
export function toHistoryEntry(state: RequestState, endedAt: number): HistoryEntry {
  const { request } = state;
  if (state.status === 'open') throw new Error(`request ${request.id} is still open`);
  const { server, requester, tool, agent, session, destructive, personStarted } = request.source;
  const source: RequestSource = { server, ...(requester && { requester }), ...(tool && { tool }), ...(agent && { agent }), ...(session !== undefined && { session }), ...(destructive && { destructive }), ...(personStarted && { personStarted }) };
  const answers: HistoryAnswer[] = [];
  if (request.mode === 'form' && state.status === 'accepted') {
    for (const question of request.questions) {
      const answer = ownAnswer(state.answers, question.id);
      if (answer?.state !== 'submitted') continue;
      answers.push({ question: question.title, answer: shownAnswer(question, fromAnswerValue(answer.value)) });
    }
  }
  return {
    id: globalThis.crypto.randomUUID(),
    source,
    mode: request.mode,
    message: request.message,
    ...(request.mode === 'url' && { url: request.url }),
    askedAt: request.createdAt,
    endedAt,
    outcome: outcomeOf(state.status, state.reason),
    ...(state.reason !== undefined && { reason: state.reason }),
    answers,
  };
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
      this.add(toHistoryEntry(finished, this.now()));
    });
  }

  add(entry: HistoryEntry): void {
    this.list = [entry, ...this.list].slice(0, HISTORY_KEPT);
    this.changed();
  }

  /** Gives the questions of a call its result (clipped): the person's (Run Tool) or an agent's; returns how many got it. */
  attachResult(match: ResultMatch, result: ResultText): number {
    let text: string | undefined;
    const clipped = (): string => {
      const full = typeof result === 'function' ? result() : result;
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
    this.changed();
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

const OUTCOMES: readonly HistoryOutcome[] = ['accepted', 'declined', 'cancelled', 'withdrawn', 'abandoned', 'timed out'];

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
