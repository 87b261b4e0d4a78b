/** The root channel as the inbox reads it: the host's sessions (listed, added, removed, retitled) and its agents. Pure. */
import { AHP_LIMITS } from './names';
import { fail, id, list, optional, record, text } from './check';

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

export function readAgents(v: unknown, path: string): AgentInfo[] {
  return list(v, path, 100, 'agent', (x, p) => {
    const a = record(x, p);
    const displayName = optional(a.displayName, (y) => text(y, `${p}.displayName`, AHP_LIMITS.labelChars));
    return { provider: text(a.provider, `${p}.provider`, AHP_LIMITS.labelChars), ...(displayName !== undefined && { displayName }) };
  });
}

export function readRootState(state: Record<string, unknown>): { readonly agents: readonly AgentInfo[] } {
  return { agents: state.agents === undefined ? [] : readAgents(state.agents, 'state.agents') };
}
