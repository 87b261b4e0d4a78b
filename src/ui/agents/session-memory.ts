/**
 * What the Agents view remembers of agent sessions across a reload of the window, in the
 * workspace's storage: the sessions that were open here (agent, id, folder, title, last
 * activity), so they are listed again, to be reopened, not as live; and what each agent
 * declared it can do with past sessions, so the view can say so before the agent starts.
 * Only sessions an agent can bring back are kept (it declared `session/load` or
 * `session/resume`): a row that cannot be opened would be a dead entry. What is read back is
 * checked: storage is ours, but an older or broken value must not break the view. Free of
 * `vscode` (a Memento is passed in), so it is unit tested.
 */
import type { SessionSupport } from '../../acp/past-sessions';
import { isRecord } from '../../base/is-record';

/** A session that was open in this workspace, to be reopened. */
export interface RememberedSession {
  readonly agent: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly title?: string;
  /** When it was last used here (ms since the epoch). */
  readonly updatedAt: number;
}

/** The part of VS Code's Memento used here. */
export interface MementoLike {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

export const SESSIONS_KEY = 'elicitationHost.agentSessions';
export const SUPPORT_KEY = 'elicitationHost.agentSessionSupport';
/** Sessions remembered at most (the newest are kept). */
export const SESSIONS_REMEMBERED = 30;

function readSession(raw: unknown): RememberedSession | undefined {
  if (!isRecord(raw)) return undefined;
  const { agent, sessionId, cwd, title, updatedAt } = raw;
  if (typeof agent !== 'string' || typeof sessionId !== 'string' || typeof cwd !== 'string' || typeof updatedAt !== 'number') return undefined;
  return { agent, sessionId, cwd, ...(typeof title === 'string' && { title }), updatedAt };
}

function readSupport(raw: unknown): SessionSupport | undefined {
  if (!isRecord(raw) || typeof raw.list !== 'boolean' || typeof raw.load !== 'boolean' || typeof raw.resume !== 'boolean') return undefined;
  return { list: raw.list, load: raw.load, resume: raw.resume };
}

export class SessionMemory {
  constructor(private readonly memento: MementoLike) {}

  /** The sessions remembered, newest first. */
  sessions(): RememberedSession[] {
    const raw = this.memento.get<unknown>(SESSIONS_KEY, undefined);
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((r) => readSession(r) ?? []).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Keeps these, one row per agent and id (the first given wins), the newest first, bounded. */
  async keep(sessions: readonly RememberedSession[]): Promise<void> {
    const seen = new Set<string>();
    const kept = [...sessions].filter((s) => {
      const key = JSON.stringify([s.agent, s.sessionId]);
      return !seen.has(key) && seen.add(key);
    });
    await this.memento.update(SESSIONS_KEY, kept.sort((a, b) => b.updatedAt - a.updatedAt).slice(0, SESSIONS_REMEMBERED));
  }

  /** What the agent declared when it last ran with this command line. */
  support(agent: string, commandLine: string): SessionSupport | undefined {
    const all = this.memento.get<unknown>(SUPPORT_KEY, undefined);
    const entry = isRecord(all) && Object.hasOwn(all, agent) ? all[agent] : undefined;
    return isRecord(entry) && entry.commandLine === commandLine ? readSupport(entry.support) : undefined;
  }

  async keepSupport(agent: string, commandLine: string, support: SessionSupport): Promise<void> {
    const all = this.memento.get<unknown>(SUPPORT_KEY, undefined);
    await this.memento.update(SUPPORT_KEY, { ...(isRecord(all) ? all : {}), [agent]: { commandLine, support } });
  }
}
