/**
 * The messages between the extension host and an agent's session page (one ACP session in a
 * webview panel), one discriminated union per direction, as for the form page. The host keeps
 * the transcript and sends whole entries (a new one, or the new state of one it sent before,
 * by id), except for streamed text: a reply, a thought or a replayed prompt grows by `append`
 * (the text a chunk added), so a chunk costs what it adds, not the reply so far. Messages that
 * come close together travel as one `batch`. The page says `ready` first; the host then sends
 * `reset` with the newest entries and how many it keeps in all: the page shows a window of the
 * newest and asks for `earlier` ones when the person wants them. What the page sends is
 * untrusted input: parseSessionPageMessage checks it field by field.
 *
 * Agent text is Markdown, rendered by the page into elements with text content only (no HTML
 * is ever parsed); tool titles, commands, paths and plans are text.
 */
import { isRecord } from '../base/is-record';
import { cspViolationOf, shortString } from './protocol';

/** ACP's, and `cancelled`: its turn stopped by the person and not finished by the agent since. */
export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
export type PlanStatus = 'pending' | 'in_progress' | 'completed';

export interface FileRef {
  readonly path: string;
  readonly line?: number;
}

export type TranscriptEntry =
  | { readonly kind: 'user'; readonly id: string; readonly text: string; readonly notShown?: number }
  /** The agent's reply so far, Markdown. `notShown`: characters past the cap, not shown (the whole reply opens in an editor: `openWhole`). */
  | { readonly kind: 'agent'; readonly id: string; readonly markdown: string; readonly notShown?: number }
  /** The agent's thinking, shown collapsed. */
  | { readonly kind: 'thought'; readonly id: string; readonly text: string; readonly notShown?: number }
  | {
      readonly kind: 'tool';
      readonly id: string;
      readonly title: string;
      /** ACP's tool kind (`read`, `edit`, `execute`…), as the agent gave it. */
      readonly toolKind: string;
      readonly status: ToolCallStatus;
      /** A command, or the raw input, as text. */
      readonly detail?: string;
      /** Files the call touches. */
      readonly locations: readonly FileRef[];
      /** Files the call changes, with the size of each change. */
      readonly diffs: readonly { readonly path: string; readonly added: number; readonly removed: number }[];
      /** Text the tool produced, as text. */
      readonly output?: string;
      /** The person's answer to the agent's permission for this call, by the option's name. */
      readonly permission?: { readonly answer: string; readonly allowed: boolean };
    }
  /** A question the agent asked and how the person answered it (each field's title and answer; secrets masked). */
  | {
      readonly kind: 'question';
      readonly id: string;
      readonly message: string;
      readonly answers: readonly { readonly question: string; readonly answer: string }[];
      /** ACP's action: `accept`, `decline` or `cancel`. */
      readonly action: string;
    }
  | { readonly kind: 'plan'; readonly id: string; readonly steps: readonly { readonly content: string; readonly status: PlanStatus }[] }
  /** A line of ours: the turn stopped, a mode changed, an error. */
  | { readonly kind: 'notice'; readonly id: string; readonly text: string; readonly tone: 'info' | 'warning' | 'error' };

export interface SelectOption {
  readonly value: string;
  readonly name: string;
  readonly description?: string;
}

/** A session option the person can change (a mode, a model…): a select with its current value. */
export interface SessionOption {
  readonly id: string;
  readonly name: string;
  readonly current: string;
  readonly options: readonly SelectOption[];
}

/** What the page's header and prompt box show. */
export interface SessionHeader {
  /** The agent, as configured ("claude"). */
  readonly agent: string;
  /** The session's title, once known. */
  readonly title?: string;
  /** The working directory. */
  readonly cwd: string;
  /** The MCP servers the agent was given at the session's start, and how it reaches each. */
  readonly servers: readonly { readonly name: string; readonly transport: 'http' | 'stdio' }[];
  /** Why it was given none, when it was given none. */
  readonly serversNote?: string;
  /** The mode select (ACP's session modes or its `mode` config option), if the agent has one. */
  readonly mode?: SessionOption;
  /** Said plainly when the current mode is one where the agent does not ask before it acts. */
  readonly modeWarning?: string;
  readonly options: readonly SessionOption[];
  /** `running`: a turn is under way (Stop is offered); `waiting`: it waits for the person's answer; `closed`: the agent is gone. */
  readonly state: 'idle' | 'running' | 'waiting' | 'closed';
  /** Why the prompt box is off (the agent is starting, it stopped…). */
  readonly disabledReason?: string;
}

/** The entries a streamed text grows: a reply (Markdown), a thought, a replayed prompt. */
export type StreamedEntry = Extract<TranscriptEntry, { kind: 'user' | 'agent' | 'thought' }>;

export type SessionHostMessage =
  /** The newest entries (`entries`), and how many the host keeps in all, these included (`kept`; without it, these are all). */
  | { readonly type: 'reset'; readonly header: SessionHeader; readonly entries: readonly TranscriptEntry[]; readonly kept?: number }
  | { readonly type: 'header'; readonly header: SessionHeader }
  /**
   * A new entry, or the new state of one already sent (same id). `last`: it is the newest entry,
   * shown last (a page that does not show it adds it; an entry it folded away it leaves folded).
   */
  | { readonly type: 'entry'; readonly entry: TranscriptEntry; readonly last?: boolean }
  /** A streamed entry already sent grew by `text`; `notShown`, once its cap is reached, is how much of it is not shown. */
  | { readonly type: 'append'; readonly id: string; readonly text: string; readonly notShown?: number }
  /** How many entries the host keeps now (the page's fold says how many of them it does not show). */
  | { readonly type: 'kept'; readonly kept: number }
  /** The answer to the page's `earlier`: the entries before `before`, oldest first (none when `before` is no longer kept). */
  | { readonly type: 'earlier'; readonly before: string; readonly entries: readonly TranscriptEntry[] }
  /** Messages sent close together, in order (never nested). */
  | { readonly type: 'batch'; readonly messages: readonly SessionHostMessage[] };

export type SessionPageMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'prompt'; readonly text: string }
  /** Stop: `session/cancel`. */
  | { readonly type: 'cancel' }
  | { readonly type: 'setOption'; readonly optionId: string; readonly value: string }
  | { readonly type: 'openFile'; readonly path: string; readonly line?: number }
  /** Show earlier: up to `count` entries before the entry `before`. */
  | { readonly type: 'earlier'; readonly before: string; readonly count: number }
  /** Open Whole Reply: the whole of a streamed entry past its cap, in an editor. */
  | { readonly type: 'openWhole'; readonly id: string }
  /** Close Session: the session ends and what it held is let go of. */
  | { readonly type: 'closeSession' }
  /** Copy: a code block's text to the clipboard (the host writes it). */
  | { readonly type: 'copy'; readonly text: string }
  | { readonly type: 'cspViolation'; readonly directive: string; readonly blockedUri: string; readonly sample: string };

/** The most a prompt may hold (a pasted file is fine; a runaway page is not). */
export const MAX_PROMPT = 1_000_000;
/** The most entries the page asks for at once (Show earlier). */
export const MAX_EARLIER = 200;
/** How many of the newest entries the page shows; older ones are folded, shown again on demand. */
export const ENTRIES_SHOWN = 100;
/** The most Copy takes: an entry's own cap (the host keeps no longer text). */
export const MAX_COPY = 200_000;

/** The message if it is one the page may send, well formed; undefined otherwise. */
export function parseSessionPageMessage(raw: unknown): SessionPageMessage | undefined {
  if (!isRecord(raw) || typeof raw.type !== 'string') return undefined;
  switch (raw.type) {
    case 'ready':
    case 'cancel':
    case 'closeSession':
      return { type: raw.type };
    case 'prompt':
      return typeof raw.text === 'string' && raw.text.trim().length > 0 && raw.text.length <= MAX_PROMPT ? { type: 'prompt', text: raw.text } : undefined;
    case 'setOption':
      return shortString(raw.optionId) && shortString(raw.value) ? { type: 'setOption', optionId: raw.optionId, value: raw.value } : undefined;
    case 'openFile': {
      if (!shortString(raw.path, 4096)) return undefined;
      const line = raw.line;
      if (line !== undefined && !(typeof line === 'number' && Number.isInteger(line) && line >= 0)) return undefined;
      return { type: 'openFile', path: raw.path, ...(typeof line === 'number' && { line }) };
    }
    case 'earlier':
      return shortString(raw.before) && typeof raw.count === 'number' && Number.isInteger(raw.count) && raw.count > 0 && raw.count <= MAX_EARLIER ? { type: 'earlier', before: raw.before, count: raw.count } : undefined;
    case 'openWhole':
      return shortString(raw.id) ? { type: 'openWhole', id: raw.id } : undefined;
    case 'copy':
      return typeof raw.text === 'string' && raw.text.length <= MAX_COPY ? { type: 'copy', text: raw.text } : undefined;
    case 'cspViolation':
      return cspViolationOf(raw);
    default:
      return undefined;
  }
}
