/**
 * The Agent Host Protocol (AHP) as far as the inbox uses it: the versions we speak, the
 * typed subset of its messages, and a checker for every message we read. Two sources of
 * truth: VS Code 1.139.1's agent host (AHP 0.9.0, read from its compiled source) and the
 * published specification (microsoft/agent-host-protocol, 1.x). Both keep a chat's input
 * requests on the chat channel as `chat/input*`; the specification's earlier generation (and
 * its page on input requests) kept them in the session's state as `session/input*`. We read
 * both, and answer in the names a request came in.
 *
 * Everything a host sends is untrusted: each checker builds a fresh value of the fields we
 * use (unknown fields are left behind), bounds sizes (the frame, ids, texts, questions,
 * options), and throws a WireError naming the field and the limit. Longer than ~400 lines
 * because the checkers belong beside the types they check: one module, as the brief for
 * src/ahp asks. Pure.
 */
import type { InputAnswer } from '../../elicitation-host';
import { isRecord } from '../base/is-record';
import { LIMITS } from '../elicitation/limits';
import { TEXT_FORMATS, type TextFormat } from '../elicitation/model';
import { overLimit } from '../elicitation/schema';

// ── Versions ────────────────────────────────────────────────────────────────

export interface VersionTraits {
  /** Who speaks it. */
  readonly seenIn: string;
  /** How `reconnect` names what the client saw: one watermark, or one cursor per channel. */
  readonly reconnect: 'watermark' | 'per-channel';
}

/** What we speak, most preferred first (the host picks the highest it accepts). */
export const VERSION_TABLE: Readonly<Record<string, VersionTraits>> = {
  '1.0.0': { seenIn: 'the published specification (1.x)', reconnect: 'per-channel' },
  '0.9.0': { seenIn: 'VS Code 1.139.1', reconnect: 'watermark' },
};
export const OFFERED_VERSIONS: readonly string[] = Object.keys(VERSION_TABLE);

export function parseVersion(version: string): readonly [number, number, number] | undefined {
  const m = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a) ?? [0, 0, 0], parseVersion(b) ?? [0, 0, 0]];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * The host's pick among `offered`, as both VS Code and the specification negotiate: the
 * highest offered version with the host's major (and, below 1.0, its minor) at or below the
 * host's own. Used by the fixture host; a client only checks the pick is one it offered.
 */
export function negotiate(offered: readonly string[], hostVersions: readonly string[]): string | undefined {
  let chosen: string | undefined;
  for (const version of offered) {
    const v = parseVersion(version);
    if (!v) continue;
    const fits = hostVersions.some((host) => {
      const h = parseVersion(host);
      return h !== undefined && v[0] === h[0] && (v[0] > 0 || v[1] === h[1]) && compareVersions(version, host) <= 0;
    });
    if (fits && (chosen === undefined || compareVersions(version, chosen) > 0)) chosen = version;
  }
  return chosen;
}

// ── Names and limits ────────────────────────────────────────────────────────

export const ROOT_CHANNEL = 'ahp-root://';

export const ERROR_CODES = {
  parseError: -32700,
  methodNotFound: -32601,
  invalidParams: -32602,
  unsupportedProtocolVersion: -32005,
  notFound: -32008,
} as const;

/** What one message from a host may weigh, beside the form limits of limits.ts that apply too. */
export const AHP_LIMITS = {
  /** One WebSocket frame (one JSON-RPC message), in bytes: a long chat's snapshot fits. */
  frameBytes: 16 * 1024 * 1024,
  /** An id or a channel URI, in characters. */
  idChars: 1_024,
  /** A short text: a title, a label, a name, in characters. */
  labelChars: 1_000,
  /** A tool call's input (the command, the arguments), in characters. */
  toolInputChars: 1_000_000,
  /** One typed answer, in characters. */
  answerChars: 100_000,
  /** Sessions watched on one host. */
  sessions: 1_000,
  /** Open input requests and pending tool calls kept per chat. */
  openPerChat: 100,
} as const;

/** Which generation of names a request came in: `chat/input*` (1.139.1, 1.x) or `session/input*` (earlier). */
export type Naming = 'chat' | 'session';

// ── Checking ────────────────────────────────────────────────────────────────

/** A message that is not what the protocol says, naming where. */
export class WireError extends Error {
  constructor(readonly path: string, problem: string) {
    super(`${path} ${problem}`);
  }
}

function fail(path: string, problem: string): never {
  throw new WireError(path, problem);
}

function record(v: unknown, path: string): Record<string, unknown> {
  return isRecord(v) ? v : fail(path, 'must be an object');
}

function text(v: unknown, path: string, limit: number = LIMITS.messageChars): string {
  if (typeof v !== 'string') fail(path, 'must be a string');
  if (v.length > limit) fail(path, overLimit(v.length, limit, 'character', 'for this field'));
  return v;
}

function optional<T>(v: unknown, read: (v: unknown) => T): T | undefined {
  return v === undefined || v === null ? undefined : read(v);
}

function id(v: unknown, path: string): string {
  const s = text(v, path, AHP_LIMITS.idChars);
  return s === '' ? fail(path, 'must not be empty') : s;
}

function count(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : fail(path, 'must be a whole number, 0 or more');
}

function finite(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fail(path, 'must be a finite number');
}

function list<T>(v: unknown, path: string, limit: number, unit: string, each: (item: unknown, path: string) => T): T[] {
  if (!Array.isArray(v)) fail(path, 'must be a list');
  if (v.length > limit) fail(path, overLimit(v.length, limit, unit, 'for this list'));
  return v.map((item, i) => each(item, `${path}[${i}]`));
}

/** StringOrMarkdown: a string, or `{ markdown }` (read as the text it is). */
function words(v: unknown, path: string, limit: number = LIMITS.messageChars): string {
  if (isRecord(v) && 'markdown' in v) return text(v.markdown, `${path}.markdown`, limit);
  return text(v, path, limit);
}

// ── Connection messages ─────────────────────────────────────────────────────

export interface Implementation {
  readonly name: string;
  readonly version?: string;
}

export interface Snapshot {
  readonly resource: string;
  /** Checked as the channel's state when used (readSessionState, readConversation...). */
  readonly state: Record<string, unknown>;
  readonly fromSeq?: number;
}

export interface InitializeResult {
  readonly protocolVersion: string;
  readonly serverSeq: number;
  readonly snapshots: readonly Snapshot[];
  readonly serverInfo?: Implementation;
}

function readSnapshot(v: unknown, path: string): Snapshot {
  const s = record(v, path);
  const fromSeq = optional(s.fromSeq, (x) => count(x, `${path}.fromSeq`));
  return { resource: id(s.resource, `${path}.resource`), state: record(s.state, `${path}.state`), ...(fromSeq !== undefined && { fromSeq }) };
}

export function readSubscribeResult(v: unknown): Snapshot | undefined {
  const r = record(v, 'result');
  return r.snapshot === undefined || r.snapshot === null ? undefined : readSnapshot(r.snapshot, 'result.snapshot');
}

export function readInitializeResult(v: unknown): InitializeResult {
  const r = record(v, 'result');
  const version = text(r.protocolVersion, 'result.protocolVersion', 32);
  const info = optional(r.serverInfo, (x) => {
    const i = record(x, 'result.serverInfo');
    const version = optional(i.version, (y) => text(y, 'result.serverInfo.version', AHP_LIMITS.labelChars));
    return { name: text(i.name, 'result.serverInfo.name', AHP_LIMITS.labelChars), ...(version !== undefined && { version }) };
  });
  return {
    protocolVersion: version,
    serverSeq: count(r.serverSeq, 'result.serverSeq'),
    snapshots: list(r.snapshots ?? [], 'result.snapshots', AHP_LIMITS.sessions, 'snapshot', readSnapshot),
    ...(info && { serverInfo: info }),
  };
}

/** The versions a host says it accepts, from a -32005 error's data (`supportedVersions`). */
export function readSupportedVersions(data: unknown): string[] {
  if (!isRecord(data) || !Array.isArray(data.supportedVersions)) return [];
  return data.supportedVersions.filter((x): x is string => typeof x === 'string' && x.length <= 32).slice(0, 20);
}

export interface ActionOrigin {
  readonly clientId: string;
  readonly clientSeq: number;
}

export interface ActionEnvelope {
  readonly channel: string;
  /** Its `type` checked; the rest is read by readAction. */
  readonly action: Readonly<Record<string, unknown>> & { readonly type: string };
  readonly serverSeq: number;
  readonly origin?: ActionOrigin;
  readonly rejectionReason?: string;
}

export function readActionEnvelope(v: unknown, path = 'params'): ActionEnvelope {
  const e = record(v, path);
  const action = record(e.action, `${path}.action`);
  const type = text(action.type, `${path}.action.type`, AHP_LIMITS.labelChars);
  const origin = optional(e.origin, (x) => {
    const o = record(x, `${path}.origin`);
    return { clientId: id(o.clientId, `${path}.origin.clientId`), clientSeq: count(o.clientSeq, `${path}.origin.clientSeq`) };
  });
  const rejectionReason = optional(e.rejectionReason, (x) => text(x, `${path}.rejectionReason`));
  return { channel: id(e.channel, `${path}.channel`), action: { ...action, type }, serverSeq: count(e.serverSeq, `${path}.serverSeq`), ...(origin && { origin }), ...(rejectionReason !== undefined && { rejectionReason }) };
}

/**
 * Who wrote an action, as its envelope says: we did (our client id in its `origin`), another
 * client did (theirs), or the host itself (no `origin`: its agent, or a request it re-sent).
 * The inbox takes in what others wrote and leaves our own echoes alone, as the input store
 * does by each change's origin (elicitation/answer-origin.ts).
 */
export type ActionAuthor = 'us' | 'another client' | 'the host';

export function authorOf(envelope: Pick<ActionEnvelope, 'origin'>, ourClientId: string): ActionAuthor {
  if (envelope.origin === undefined) return 'the host';
  return envelope.origin.clientId === ourClientId ? 'us' : 'another client';
}

/** What a reconnect recovered, whichever of the two shapes the host answered in. */
export interface Recovery {
  readonly actions: readonly ActionEnvelope[];
  readonly snapshots: readonly Snapshot[];
  readonly missing: readonly string[];
}

const MAX_REPLAY = 100_000;

export function readReconnectResult(v: unknown): Recovery {
  const r = record(v, 'result');
  if (Array.isArray(r.channels)) {
    // 1.x: one outcome per channel.
    const actions: ActionEnvelope[] = [];
    const snapshots: Snapshot[] = [];
    const missing: string[] = [];
    list(r.channels, 'result.channels', AHP_LIMITS.sessions * 4, 'channel', (x, path) => {
      const c = record(x, path);
      if (c.kind === 'replay') actions.push(...list(c.actions, `${path}.actions`, MAX_REPLAY, 'action', readActionEnvelope));
      else if (c.kind === 'snapshot') snapshots.push(readSnapshot(c.snapshot, `${path}.snapshot`));
      else if (c.kind === 'missing') missing.push(id(c.channel, `${path}.channel`));
      else fail(`${path}.kind`, 'must be replay, snapshot or missing');
    });
    return { actions: actions.sort((a, b) => a.serverSeq - b.serverSeq), snapshots, missing };
  }
  if (r.type === 'replay') {
    return { actions: list(r.actions, 'result.actions', MAX_REPLAY, 'action', readActionEnvelope), snapshots: [], missing: list(r.missing ?? [], 'result.missing', AHP_LIMITS.sessions * 4, 'channel', id) };
  }
  if (r.type === 'snapshot') return { actions: [], snapshots: list(r.snapshots, 'result.snapshots', AHP_LIMITS.sessions * 4, 'snapshot', readSnapshot), missing: [] };
  return fail('result', 'must be a replay or a snapshot');
}

// ── Root: sessions and agents ───────────────────────────────────────────────

export interface SessionSummary {
  readonly resource: string;
  readonly provider?: string;
  readonly title?: string;
}

function readSummary(v: unknown, path: string): SessionSummary {
  const s = record(v, path);
  const provider = optional(s.provider, (x) => text(x, `${path}.provider`, AHP_LIMITS.labelChars));
  const title = optional(s.title, (x) => text(x, `${path}.title`, AHP_LIMITS.labelChars));
  return { resource: id(s.resource, `${path}.resource`), ...(provider !== undefined && { provider }), ...(title !== undefined && { title }) };
}

/** The host's sessions, the first AHP_LIMITS.sessions of them (`omitted` says how many more there were). */
export function readListSessions(v: unknown): { readonly sessions: SessionSummary[]; readonly omitted: number } {
  const r = record(v, 'result');
  if (!Array.isArray(r.items)) fail('result.items', 'must be a list');
  const omitted = Math.max(0, r.items.length - AHP_LIMITS.sessions);
  return { sessions: list(r.items.slice(0, AHP_LIMITS.sessions), 'result.items', AHP_LIMITS.sessions, 'session', readSummary), omitted };
}

export function readSessionAdded(v: unknown): SessionSummary {
  return readSummary(record(v, 'params').summary, 'params.summary');
}

export function readSessionRemoved(v: unknown): string {
  return id(record(v, 'params').session, 'params.session');
}

export function readSessionSummaryChanged(v: unknown): { readonly session: string; readonly title?: string } {
  const p = record(v, 'params');
  const changes = record(p.changes ?? {}, 'params.changes');
  const title = optional(changes.title, (x) => text(x, 'params.changes.title', AHP_LIMITS.labelChars));
  return { session: id(p.session, 'params.session'), ...(title !== undefined && { title }) };
}

export interface AgentInfo {
  readonly provider: string;
  readonly displayName?: string;
}

function readAgents(v: unknown, path: string): AgentInfo[] {
  return list(v, path, 100, 'agent', (x, p) => {
    const a = record(x, p);
    const displayName = optional(a.displayName, (y) => text(y, `${p}.displayName`, AHP_LIMITS.labelChars));
    return { provider: text(a.provider, `${p}.provider`, AHP_LIMITS.labelChars), ...(displayName !== undefined && { displayName }) };
  });
}

export function readRootState(state: Record<string, unknown>): { readonly agents: readonly AgentInfo[] } {
  return { agents: state.agents === undefined ? [] : readAgents(state.agents, 'state.agents') };
}

// ── Input requests ──────────────────────────────────────────────────────────

export interface WireOption {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly recommended?: boolean;
}

interface WireQuestionBase {
  readonly id: string;
  readonly title?: string;
  /** What is asked (AHP's `message`). */
  readonly message: string;
  readonly required?: boolean;
}

export type WireQuestion =
  | (WireQuestionBase & { readonly kind: 'text'; readonly format?: TextFormat; readonly min?: number; readonly max?: number; readonly defaultValue?: string })
  | (WireQuestionBase & { readonly kind: 'number' | 'integer'; readonly min?: number; readonly max?: number; readonly defaultValue?: number })
  | (WireQuestionBase & { readonly kind: 'boolean'; readonly defaultValue?: boolean })
  | (WireQuestionBase & { readonly kind: 'single-select'; readonly options: readonly WireOption[]; readonly allowFreeformInput?: boolean; readonly defaultValue?: string })
  | (WireQuestionBase & { readonly kind: 'multi-select'; readonly options: readonly WireOption[]; readonly allowFreeformInput?: boolean; readonly min?: number; readonly max?: number; readonly defaultValue?: readonly string[] });

/** An answer on the wire: the shape the extension API's d.ts spells for callers, which is AHP's. */
export type WireAnswer = InputAnswer;

export interface WireInputRequest {
  readonly id: string;
  readonly message?: string;
  readonly url?: string;
  readonly questions: readonly WireQuestion[];
  readonly answers: Readonly<Record<string, WireAnswer>>;
}

export type InputResponse = 'accept' | 'decline' | 'cancel';

function readOption(v: unknown, path: string): WireOption {
  const o = record(v, path);
  const description = optional(o.description, (x) => text(x, `${path}.description`));
  return { id: id(o.id, `${path}.id`), label: text(o.label, `${path}.label`, AHP_LIMITS.labelChars), ...(description !== undefined && { description }), ...(o.recommended === true && { recommended: true }) };
}

function bound(q: Record<string, unknown>, path: string): { min?: number; max?: number } {
  const min = optional(q.min, (x) => finite(x, `${path}.min`));
  const max = optional(q.max, (x) => finite(x, `${path}.max`));
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}

function readQuestion(v: unknown, path: string): WireQuestion {
  const q = record(v, path);
  const title = optional(q.title, (x) => text(x, `${path}.title`, AHP_LIMITS.labelChars));
  const base: WireQuestionBase = { id: id(q.id, `${path}.id`), ...(title !== undefined && { title }), message: text(q.message ?? '', `${path}.message`), ...(q.required === true && { required: true }) };
  const freeform = q.allowFreeformInput === true ? { allowFreeformInput: true } : {};
  const options = (): WireOption[] => list(q.options, `${path}.options`, LIMITS.options, 'option', readOption);
  switch (q.kind) {
    case 'text': {
      // A format we do not know is left out: the answer is still text.
      const format = TEXT_FORMATS.find((f) => f === q.format);
      const defaultValue = optional(q.defaultValue, (x) => text(x, `${path}.defaultValue`, AHP_LIMITS.answerChars));
      return { ...base, kind: 'text', ...(format && { format }), ...bound(q, path), ...(defaultValue !== undefined && { defaultValue }) };
    }
    case 'number':
    case 'integer': {
      const defaultValue = optional(q.defaultValue, (x) => finite(x, `${path}.defaultValue`));
      return { ...base, kind: q.kind, ...bound(q, path), ...(defaultValue !== undefined && { defaultValue }) };
    }
    case 'boolean':
      return { ...base, kind: 'boolean', ...(typeof q.defaultValue === 'boolean' && { defaultValue: q.defaultValue }) };
    case 'single-select': {
      const defaultValue = optional(q.defaultValue, (x) => id(x, `${path}.defaultValue`));
      return { ...base, kind: 'single-select', options: options(), ...freeform, ...(defaultValue !== undefined && { defaultValue }) };
    }
    case 'multi-select': {
      const defaultValue = optional(q.defaultValue, (x) => list(x, `${path}.defaultValue`, LIMITS.options, 'option', id));
      return { ...base, kind: 'multi-select', options: options(), ...freeform, ...bound(q, path), ...(defaultValue !== undefined && { defaultValue }) };
    }
    default:
      return fail(`${path}.kind`, `must be text, number, integer, boolean, single-select or multi-select, not ${JSON.stringify(String(q.kind)).slice(0, 60)}`);
  }
}

function strings(v: unknown, path: string): string[] {
  return list(v, path, LIMITS.options, 'value', (x, p) => text(x, p, AHP_LIMITS.answerChars));
}

export function readAnswer(v: unknown, path: string): WireAnswer {
  const a = record(v, path);
  if (a.state === 'skipped') return { state: 'skipped' };
  if (a.state !== 'draft' && a.state !== 'submitted') fail(`${path}.state`, 'must be draft, submitted or skipped');
  const value = record(a.value, `${path}.value`);
  const at = `${path}.value.value`;
  const freeform = (): { freeformValues?: string[] } => (value.freeformValues === undefined ? {} : { freeformValues: strings(value.freeformValues, `${path}.value.freeformValues`) });
  const state = a.state;
  switch (value.kind) {
    case 'text':
      return { state, value: { kind: 'text', value: text(value.value, at, AHP_LIMITS.answerChars) } };
    case 'number':
      return { state, value: { kind: 'number', value: finite(value.value, at) } };
    case 'boolean':
      return typeof value.value === 'boolean' ? { state, value: { kind: 'boolean', value: value.value } } : fail(at, 'must be true or false');
    case 'selected':
      return { state, value: { kind: 'selected', value: text(value.value, at, AHP_LIMITS.idChars), ...freeform() } };
    case 'selected-many':
      return { state, value: { kind: 'selected-many', value: list(value.value, at, LIMITS.options, 'option', id), ...freeform() } };
    default:
      return fail(`${path}.value.kind`, 'must be text, number, boolean, selected or selected-many');
  }
}

function readAnswers(v: unknown, path: string): Record<string, WireAnswer> {
  const out: Record<string, WireAnswer> = {};
  if (v === undefined || v === null) return out;
  const entries = Object.entries(record(v, path));
  if (entries.length > LIMITS.properties * 2) fail(path, overLimit(entries.length, LIMITS.properties * 2, 'answer', 'for a request'));
  // defineProperty: a question may be called "__proto__".
  for (const [key, answer] of entries) Object.defineProperty(out, id(key, `${path} key`), { value: readAnswer(answer, `${path}.${key.slice(0, 40)}`), enumerable: true });
  return out;
}

export function readInputRequest(v: unknown, path = 'request'): WireInputRequest {
  const r = record(v, path);
  const message = optional(r.message, (x) => text(x, `${path}.message`));
  const url = optional(r.url, (x) => text(x, `${path}.url`, 8_192));
  const questions = list(r.questions ?? [], `${path}.questions`, LIMITS.properties, 'question', readQuestion);
  return { id: id(r.id, `${path}.id`), ...(message !== undefined && { message }), ...(url !== undefined && { url }), questions, answers: readAnswers(r.answers, `${path}.answers`) };
}

// ── Tool calls waiting for a confirmation ───────────────────────────────────

export interface WireConfirmationOption {
  readonly id: string;
  readonly label: string;
  readonly kind: 'approve' | 'deny';
}

export interface WireToolCall {
  readonly toolCallId: string;
  readonly status: string;
  readonly toolName?: string;
  readonly displayName?: string;
  readonly invocationMessage?: string;
  readonly toolInput?: string;
  readonly confirmationTitle?: string;
  readonly options?: readonly WireConfirmationOption[];
  /** `_meta.toolKind` ("terminal" for a shell command), the one hint of `_meta` we read. */
  readonly toolKind?: string;
}

export function readToolCall(v: unknown, path: string): WireToolCall {
  const t = record(v, path);
  const opt = (key: string, limit: number = AHP_LIMITS.labelChars): Record<string, string> => {
    const value = optional(t[key], (x) => words(x, `${path}.${key}`, limit));
    return value === undefined ? {} : { [key]: value };
  };
  const options = optional(t.options, (x) =>
    list(x, `${path}.options`, 20, 'option', (o, p) => {
      const r = record(o, p);
      return r.kind === 'approve' || r.kind === 'deny' ? { id: id(r.id, `${p}.id`), label: text(r.label ?? r.id, `${p}.label`, AHP_LIMITS.labelChars), kind: r.kind } : undefined;
    }).filter((o): o is WireConfirmationOption => o !== undefined),
  );
  const meta = isRecord(t._meta) && typeof t._meta.toolKind === 'string' && t._meta.toolKind.length <= 100 ? { toolKind: t._meta.toolKind } : {};
  return {
    toolCallId: id(t.toolCallId, `${path}.toolCallId`),
    status: text(t.status ?? 'unknown', `${path}.status`, 100),
    ...opt('toolName'),
    ...opt('displayName'),
    ...opt('invocationMessage', LIMITS.messageChars),
    ...opt('toolInput', AHP_LIMITS.toolInputChars),
    ...opt('confirmationTitle'),
    ...(options && options.length > 0 && { options }),
    ...meta,
  };
}

// ── Channel state: a conversation (a chat, or an earlier session), a session ─

/** What a conversation's state holds that the inbox needs: the active turn's open requests and tool calls. */
export interface ConversationView {
  readonly activeTurnId?: string;
  readonly requests: readonly WireInputRequest[];
  readonly toolCalls: ReadonlyArray<{ readonly turnId: string; readonly call: WireToolCall }>;
  /** Requests and tool calls left out because they broke the protocol or a limit (each names where). */
  readonly problems: readonly string[];
}

export function readConversation(state: Record<string, unknown>): ConversationView {
  const requests: WireInputRequest[] = [];
  const toolCalls: Array<{ turnId: string; call: WireToolCall }> = [];
  const problems: string[] = [];
  // One bad request does not cost the others: each is read on its own.
  const each = (read: () => void): void => {
    try {
      read();
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      problems.push(error.message);
    }
  };
  // The earlier generation kept open requests at the top of the session's state.
  if (state.inputRequests !== undefined) {
    const open = Array.isArray(state.inputRequests) ? state.inputRequests.slice(0, AHP_LIMITS.openPerChat) : fail('state.inputRequests', 'must be a list');
    open.forEach((r: unknown, i) => each(() => requests.push(readInputRequest(r, `state.inputRequests[${i}]`))));
  }
  const turn = optional(state.activeTurn, (x) => record(x, 'state.activeTurn'));
  if (!turn) return { requests, toolCalls, problems };
  const turnId = id(turn.id, 'state.activeTurn.id');
  // Parts other than open requests and tool calls (text, reasoning...) are not read at all.
  const parts = Array.isArray(turn.responseParts) ? turn.responseParts : [];
  parts.forEach((part: unknown, i) => {
    const path = `state.activeTurn.responseParts[${i}]`;
    if (!isRecord(part)) return;
    if (part.kind === 'inputRequest' && part.response === undefined && requests.length < AHP_LIMITS.openPerChat) each(() => requests.push(readInputRequest(part.request, `${path}.request`)));
    if (part.kind === 'toolCall' && isRecord(part.toolCall) && part.toolCall.status === 'pending-confirmation' && toolCalls.length < AHP_LIMITS.openPerChat) each(() => toolCalls.push({ turnId, call: readToolCall(part.toolCall, `${path}.toolCall`) }));
  });
  return { activeTurnId: turnId, requests, toolCalls, problems };
}

export interface SessionView {
  readonly title?: string;
  readonly chats: readonly string[];
}

export function readSessionState(state: Record<string, unknown>): SessionView {
  const summary = isRecord(state.summary) ? state.summary : {};
  const title = optional(state.title ?? summary.title, (x) => text(x, 'state.title', AHP_LIMITS.labelChars));
  const chats = new Set<string>();
  if (state.chats !== undefined) list(state.chats, 'state.chats', 200, 'chat', (c, p) => chats.add(id(record(c, p).resource, `${p}.resource`)));
  if (state.defaultChat !== undefined && state.defaultChat !== null) chats.add(id(state.defaultChat, 'state.defaultChat'));
  return { ...(title !== undefined && { title }), chats: [...chats] };
}

// ── Actions ─────────────────────────────────────────────────────────────────

export type TurnEnd = 'complete' | 'cancelled' | 'error' | 'truncated';

/** The actions the inbox acts on, checked; every other type is `other`. */
export type KnownAction =
  | { readonly type: 'turnStarted'; readonly naming: Naming; readonly turnId: string }
  | { readonly type: 'turnEnded'; readonly naming: Naming; readonly turnId?: string; readonly how: TurnEnd }
  | { readonly type: 'inputRequested'; readonly naming: Naming; readonly request: WireInputRequest }
  | { readonly type: 'inputAnswerChanged'; readonly naming: Naming; readonly requestId: string; readonly questionId: string; readonly answer?: WireAnswer }
  | { readonly type: 'inputCompleted'; readonly naming: Naming; readonly requestId: string; readonly response: InputResponse; readonly answers?: Readonly<Record<string, WireAnswer>> }
  | { readonly type: 'toolCallReady'; readonly naming: Naming; readonly turnId: string; readonly call: WireToolCall; readonly confirmed: boolean }
  | { readonly type: 'toolCallSettled'; readonly naming: Naming; readonly turnId: string; readonly toolCallId: string; readonly how: 'approved' | 'denied' | 'completed' }
  | { readonly type: 'titleChanged'; readonly title: string }
  | { readonly type: 'chatAdded'; readonly chat: string }
  | { readonly type: 'chatRemoved'; readonly chat: string }
  | { readonly type: 'agentsChanged'; readonly agents: readonly AgentInfo[] }
  | { readonly type: 'other'; readonly name: string };

const TURN_ENDS: Readonly<Record<string, TurnEnd>> = { turnComplete: 'complete', turnCancelled: 'cancelled', error: 'error', truncated: 'truncated' };

export function readAction(action: ActionEnvelope['action']): KnownAction {
  const a = action;
  const slash = a.type.indexOf('/');
  const scope = a.type.slice(0, slash);
  const name = a.type.slice(slash + 1);
  if (scope === 'root' && name === 'agentsChanged') return { type: 'agentsChanged', agents: readAgents(a.agents, 'action.agents') };
  if (scope === 'session') {
    if (name === 'titleChanged') return { type: 'titleChanged', title: text(a.title, 'action.title', AHP_LIMITS.labelChars) };
    if (name === 'chatAdded') return { type: 'chatAdded', chat: id(record(a.summary, 'action.summary').resource, 'action.summary.resource') };
    if (name === 'chatRemoved') return { type: 'chatRemoved', chat: id(a.chat, 'action.chat') };
  }
  if (scope !== 'chat' && scope !== 'session') return { type: 'other', name: a.type };
  const naming: Naming = scope;
  const turnId = (): string => id(a.turnId, 'action.turnId');
  switch (name) {
    case 'turnStarted':
      return { type: 'turnStarted', naming, turnId: turnId() };
    case 'turnComplete':
    case 'turnCancelled':
    case 'error':
    case 'truncated': {
      const turn = optional(a.turnId, (x) => id(x, 'action.turnId'));
      return { type: 'turnEnded', naming, how: TURN_ENDS[name], ...(turn !== undefined && { turnId: turn }) };
    }
    case 'inputRequested':
      return { type: 'inputRequested', naming, request: readInputRequest(a.request, 'action.request') };
    case 'inputAnswerChanged': {
      const answer = optional(a.answer, (x) => readAnswer(x, 'action.answer'));
      return { type: 'inputAnswerChanged', naming, requestId: id(a.requestId, 'action.requestId'), questionId: id(a.questionId, 'action.questionId'), ...(answer && { answer }) };
    }
    case 'inputCompleted': {
      if (a.response !== 'accept' && a.response !== 'decline' && a.response !== 'cancel') fail('action.response', 'must be accept, decline or cancel');
      const answers = optional(a.answers, (x) => readAnswers(x, 'action.answers'));
      return { type: 'inputCompleted', naming, requestId: id(a.requestId, 'action.requestId'), response: a.response, ...(answers && { answers }) };
    }
    case 'toolCallReady':
      return { type: 'toolCallReady', naming, turnId: turnId(), call: readToolCall({ ...a, status: 'pending-confirmation' }, 'action'), confirmed: a.confirmed !== undefined && a.confirmed !== null };
    case 'toolCallConfirmed':
      return { type: 'toolCallSettled', naming, turnId: turnId(), toolCallId: id(a.toolCallId, 'action.toolCallId'), how: a.approved === true ? 'approved' : 'denied' };
    case 'toolCallComplete':
      return { type: 'toolCallSettled', naming, turnId: turnId(), toolCallId: id(a.toolCallId, 'action.toolCallId'), how: 'completed' };
    default:
      return { type: 'other', name: a.type };
  }
}

// ── What we send ────────────────────────────────────────────────────────────

/** The action that answers, in the naming the request came in (the earlier one also names the session). */
function ours(naming: Naming, channel: string, name: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { type: `${naming}/${name}`, ...(naming === 'session' && { session: channel }), ...fields };
}

export function answerChangedAction(naming: Naming, channel: string, requestId: string, questionId: string, answer: WireAnswer | undefined): Record<string, unknown> {
  return ours(naming, channel, 'inputAnswerChanged', { requestId, questionId, ...(answer && { answer }) });
}

export function inputCompletedAction(naming: Naming, channel: string, requestId: string, response: InputResponse, answers?: Readonly<Record<string, WireAnswer>>): Record<string, unknown> {
  return ours(naming, channel, 'inputCompleted', { requestId, response, ...(answers && { answers }) });
}

export function toolCallConfirmedAction(naming: Naming, channel: string, turnId: string, toolCallId: string, approved: boolean, selectedOptionId?: string): Record<string, unknown> {
  return ours(naming, channel, 'toolCallConfirmed', {
    turnId,
    toolCallId,
    approved,
    ...(approved ? { confirmed: 'user-action' } : { reason: 'denied' }),
    ...(selectedOptionId !== undefined && { selectedOptionId }),
  });
}
