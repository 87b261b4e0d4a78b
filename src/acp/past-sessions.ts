/**
 * An agent's past sessions: what it declares it can do with them (ACP's `loadSession`, and
 * `sessionCapabilities.list` / `.resume`), and `session/list` read page by page into
 * checked, bounded rows for one folder. An agent's list is its own words: every field is
 * checked, titles are cut to one line's worth, and a list that runs on (too many pages, a
 * cursor that comes back, no answer) stops with what it has or a clear error.
 */
import type { AgentCapabilities, ClientContext } from '@agentclientprotocol/sdk';
import { isRecord } from '../base/is-record';

/** What an agent declares it can do with a session it had before. */
export interface SessionSupport {
  /** `session/list`: its sessions, by folder. */
  readonly list: boolean;
  /** `session/load`: the session again, its conversation replayed first. */
  readonly load: boolean;
  /** `session/resume`: the session again, without the conversation. */
  readonly resume: boolean;
}

/** One row of an agent's `session/list`, checked. */
export interface PastSession {
  readonly id: string;
  readonly cwd: string;
  readonly title?: string;
  /** Last activity, ms since the epoch (the agent's `updatedAt`, when it gave a readable one). */
  readonly updatedAt?: number;
}

/** Rows kept from one listing: more than a person scrolls through in a tree. */
export const PAST_SESSIONS_KEPT = 200;
/** Pages asked for at most. */
export const PAST_SESSION_PAGES = 10;
/** How long a whole listing may take. */
export const LIST_TIMEOUT_MS = 30_000;
const ID_CHARS = 512;
const TITLE_CHARS = 200;

export function sessionSupport(capabilities: AgentCapabilities): SessionSupport {
  const session = capabilities.sessionCapabilities;
  return { list: isRecord(session?.list), load: capabilities.loadSession === true, resume: isRecord(session?.resume) };
}

/** Whether the agent can bring a past session back at all. */
export function canReopen(support: SessionSupport): boolean {
  return support.load || support.resume;
}

/** What a person reads about an agent that keeps none of its sessions for us. */
export function noPastSessions(agent: string): string {
  return `${agent} does not offer its past sessions: it declares none of session/list, session/load and session/resume`;
}

function title(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}

/** One `session/list` row as a past session of `cwd`, or undefined for a row that is not one. */
export function readPastSession(raw: unknown, cwd: string): PastSession | undefined {
  if (!isRecord(raw)) return undefined;
  const { sessionId } = raw;
  if (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > ID_CHARS) return undefined;
  // The filter is ours to keep: an agent may answer with every folder's sessions.
  if (raw.cwd !== cwd) return undefined;
  const shown = title(raw.title);
  const updated = typeof raw.updatedAt === 'string' ? Date.parse(raw.updatedAt) : NaN;
  return { id: sessionId, cwd, ...(shown !== undefined && { title: shown }), ...(Number.isFinite(updated) && { updatedAt: updated }) };
}

/** Asks `session/list` for `cwd`'s sessions, page by page; newest first. */
export async function listPastSessions(agent: ClientContext, name: string, cwd: string, timeoutMs = LIST_TIMEOUT_MS): Promise<PastSession[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not answer session/list within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  try {
    return await Promise.race([pages(agent, name, cwd), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function pages(agent: ClientContext, name: string, cwd: string): Promise<PastSession[]> {
  const found = new Map<string, PastSession>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < PAST_SESSION_PAGES && found.size < PAST_SESSIONS_KEPT; page++) {
    const response: unknown = await agent.request('session/list', { cwd, ...(cursor !== undefined && { cursor }) });
    if (!isRecord(response) || !Array.isArray(response.sessions)) throw new Error(`${name} answered session/list without a list of sessions`);
    for (const row of response.sessions) {
      const session = readPastSession(row, cwd);
      if (session && !found.has(session.id) && found.size < PAST_SESSIONS_KEPT) found.set(session.id, session);
    }
    const next = response.nextCursor;
    // A cursor seen before would go round for ever.
    if (typeof next !== 'string' || next === '' || cursors.has(next)) break;
    cursors.add(next);
    cursor = next;
  }
  return [...found.values()].sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
}
