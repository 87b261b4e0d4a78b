/**
 * The messages between the extension host and the form page, one discriminated union per
 * direction. The page says `ready` first; the host sends nothing before that. Everything
 * the page sends is untrusted input: parsePageMessage checks it field by field.
 */
import type { Question } from '../elicitation/model';
import { isRecord } from '../base/is-record';

/**
 * Who asks, as the page shows it: the part of the request's source (elicitation/request.ts
 * `RequestSource`, whose fields these are) that its heading says with `sourceLabel`, as
 * every surface says it, and whether Decline is offered.
 */
export interface FormAsker {
  /** The server, the extension ("Extension: name", never as a server) or the agent asking. */
  readonly server: string;
  readonly requester?: 'server' | 'extension' | 'agent';
  readonly tool?: string;
  /** The agent whose call asked, through the gateway ("…, for Claude Code"). */
  readonly agent?: string;
  /** The agent's session ("…, for session 'fix the tests'"). */
  readonly session?: string;
  /** A background task's question (MCP Tasks): "tool (background task)". */
  readonly background?: boolean;
  /** The person's own question (Run Tool's arguments): Run and Cancel, no Decline. */
  readonly ownQuestion?: boolean;
}

/** A form as the page renders it. Server text arrives as data and is set as text. */
export interface FormView {
  readonly requestId: string;
  readonly asker: FormAsker;
  readonly message: string;
  readonly questions: readonly Question[];
  /** Drafts to restore, by question id (typed as the question takes them). */
  readonly drafts: Readonly<Record<string, DraftValue>>;
  /** Why the last submission was refused, by question id. */
  readonly errors?: Readonly<Record<string, string>>;
}

/** What a field holds: a typed value, or the raw text a person typed that does not parse yet. */
export type DraftValue = string | number | boolean | readonly string[];

export type HostMessage =
  | { readonly type: 'render'; readonly form: FormView }
  /** Nothing to show (the request ended, and no other form waits). */
  | { readonly type: 'idle'; readonly note?: string }
  /** A draft changed elsewhere (the extension that asked updated it): the field shows it; null clears it. */
  | { readonly type: 'draft'; readonly requestId: string; readonly questionId: string; readonly value: DraftValue | null };

export type PageMessage =
  /** The page is loaded; `showing` is the form it rendered from the page itself, if any. */
  | { readonly type: 'ready'; readonly showing?: string }
  | { readonly type: 'draft'; readonly requestId: string; readonly questionId: string; readonly value: DraftValue | null }
  | { readonly type: 'submit'; readonly requestId: string; readonly values: Readonly<Record<string, DraftValue | null>> }
  | { readonly type: 'decline'; readonly requestId: string }
  | { readonly type: 'cancel'; readonly requestId: string }
  | { readonly type: 'stepByStep'; readonly requestId: string }
  /**
   * The form is on screen with its first field focused: the form is ready for the person (timed
   * by the benchmark). A new page's frame stays hidden until its load event, so `at` is the
   * later of the focus (`focusedAt`) and that load.
   */
  | { readonly type: 'shown'; readonly requestId: string; readonly at: number; readonly focusedAt?: number; readonly scriptStartedAt?: number; readonly renderStartedAt?: number }
  | { readonly type: 'cspViolation'; readonly directive: string; readonly blockedUri: string; readonly sample: string };

function isDraftValue(value: unknown): value is DraftValue {
  return (
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string'))
  );
}

const MAX_TEXT = 1_000_000;

export function shortString(value: unknown, max = 500): value is string {
  return typeof value === 'string' && value.length <= max;
}

/** The message if it is one the page may send, well formed; undefined otherwise. */
export function parsePageMessage(raw: unknown): PageMessage | undefined {
  if (!isRecord(raw) || typeof raw.type !== 'string') return undefined;
  const id = raw.requestId;
  switch (raw.type) {
    case 'ready':
      return shortString(raw.showing) ? { type: 'ready', showing: raw.showing } : { type: 'ready' };
    case 'draft':
      if (!shortString(id) || !shortString(raw.questionId, 10_000)) return undefined;
      if (raw.value !== null && !isDraftValue(raw.value)) return undefined;
      if (typeof raw.value === 'string' && raw.value.length > MAX_TEXT) return undefined;
      return { type: 'draft', requestId: id, questionId: raw.questionId, value: raw.value as DraftValue | null };
    case 'submit': {
      if (!shortString(id) || !isRecord(raw.values)) return undefined;
      const values: Record<string, DraftValue | null> = {};
      for (const [key, value] of Object.entries(raw.values)) {
        if (value !== null && !isDraftValue(value)) return undefined;
        if (typeof value === 'string' && value.length > MAX_TEXT) return undefined;
        Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
      }
      return { type: 'submit', requestId: id, values };
    }
    case 'decline':
    case 'cancel':
    case 'stepByStep':
      return shortString(id) ? { type: raw.type, requestId: id } : undefined;
    case 'shown':
      if (!shortString(id) || typeof raw.at !== 'number') return undefined;
      return {
        type: 'shown',
        requestId: id,
        at: raw.at,
        ...(typeof raw.focusedAt === 'number' && { focusedAt: raw.focusedAt }),
        ...(typeof raw.scriptStartedAt === 'number' && { scriptStartedAt: raw.scriptStartedAt }),
        ...(typeof raw.renderStartedAt === 'number' && { renderStartedAt: raw.renderStartedAt }),
      };
    case 'cspViolation':
      return cspViolationOf(raw);
    default:
      return undefined;
  }
}

/** A page's report that it broke its Content-Security-Policy (every page of ours sends it), checked. */
export function cspViolationOf(raw: Record<string, unknown>): { readonly type: 'cspViolation'; readonly directive: string; readonly blockedUri: string; readonly sample: string } | undefined {
  return shortString(raw.directive) && shortString(raw.blockedUri, 2000) && shortString(raw.sample, 2000)
    ? { type: 'cspViolation', directive: raw.directive, blockedUri: raw.blockedUri, sample: raw.sample }
    : undefined;
}
