/**
 * What the ACP agents in the window (acp-agents.ts) keep of sessions beyond their panels, and
 * how one comes back: the sessions open here before (remembered across a reload,
 * session-memory.ts), what each agent declared it can do with past sessions, each running
 * agent's `session/list` for the folder, asked once and kept until something changes it (a
 * turn ends, a title comes, sessions open, the agent starts or ends) so the tree's refreshes do
 * not ask the agent again each time, and reopening one (`reopen`: loaded with its conversation
 * replayed, or resumed).
 */
import type { AgentClient } from '../../acp/agent-client';
import type { AgentSession } from '../../acp/agent-session';
import { canReopen, noPastSessions, type PastSession, type SessionSupport } from '../../acp/past-sessions';
import { errorMessage } from '../../base/error-message';
import type { ConfiguredAgent } from './agent-definitions';
import { type MementoLike, type RememberedSession, SessionMemory } from './session-memory';
import type { SessionPanel } from './session-panel';

/** ACP's "resource not found": the agent no longer has the session. */
const NOT_FOUND = -32002;

/** The session to reopen: whose, where, and the panel that shows it now, if one does. */
export interface Reopening {
  readonly agent: string;
  readonly client: AgentClient;
  readonly sessionId: string;
  readonly title?: string;
  /** The workspace's first folder: sessions of this folder only, where the agent reads and writes. */
  readonly cwd: string | undefined;
  readonly shown?: SessionPanel;
}

/** What reopening asks of the agents in the window: a panel made and dropped, the starting mode, a forgotten session said. */
export interface ReopenSteps {
  addPanel(session: AgentSession, note: string): SessionPanel;
  dropPanel(panel: SessionPanel): void;
  startMode(session: AgentSession): Promise<void>;
  forgotten(): void;
}

/** A session open now, as the next window should find it. */
export interface OpenSession {
  readonly sessionId: string;
  readonly cwd: string;
  readonly title: string;
  /** When the person last used it here, if they have. */
  readonly lastActivity?: number;
}

/** The agent's command line: what it declared is remembered for this command only. */
function commandLine(agent: ConfiguredAgent): string {
  return JSON.stringify([agent.definition.command, ...agent.definition.args]);
}

export class SessionKeeper {
  private readonly memory: SessionMemory;
  private remembered: RememberedSession[];
  private readonly listed = new Map<string, Promise<PastSession[]>>();

  constructor(memento: MementoLike) {
    this.memory = new SessionMemory(memento);
    this.remembered = this.memory.sessions();
  }

  /** What the agent declares: from its running client, else as it declared it the last time it ran with this command. */
  support(agent: ConfiguredAgent, client: AgentClient | undefined): SessionSupport | undefined {
    return client?.sessionSupport ?? this.memory.support(agent.definition.name, commandLine(agent));
  }

  /** The agent started: what it declares is kept, its list asked afresh. */
  started(agent: ConfiguredAgent, client: AgentClient): void {
    this.listed.delete(agent.definition.name);
    void this.memory.keepSupport(agent.definition.name, commandLine(agent), client.sessionSupport);
  }

  /** Something changed the agent's list (a turn ended, a title, a session opened, the agent ended). */
  changed(agent: string): void {
    this.listed.delete(agent);
  }

  /** The sessions remembered for the agent in `folder`, without those open now. */
  rememberedOf(agent: string, folder: string | undefined, open: ReadonlySet<string>): RememberedSession[] {
    return this.remembered.filter((r) => r.agent === agent && r.cwd === folder && !open.has(r.sessionId));
  }

  find(agent: string, sessionId: string): RememberedSession | undefined {
    return this.remembered.find((r) => r.agent === agent && r.sessionId === sessionId);
  }

  /** Keeps the agents' open sessions, where they can bring them back, beside those remembered and not reopened. */
  async keep(open: readonly { readonly agent: string; readonly support: SessionSupport | undefined; readonly sessions: readonly OpenSession[] }[]): Promise<void> {
    const now = Date.now();
    const rows = open.flatMap(({ agent, support, sessions }) =>
      support && canReopen(support)
        ? sessions.map((s) => ({ agent, sessionId: s.sessionId, cwd: s.cwd, title: s.title, updatedAt: s.lastActivity ?? this.find(agent, s.sessionId)?.updatedAt ?? now }))
        : [],
    );
    this.remembered = [...rows, ...this.remembered];
    await this.memory.keep(this.remembered);
    this.remembered = this.memory.sessions();
  }

  /** Forgets a remembered session (the agent no longer has it). */
  async forget(agent: string, sessionId: string): Promise<void> {
    this.remembered = this.remembered.filter((r) => !(r.agent === agent && r.sessionId === sessionId));
    await this.memory.keep(this.remembered);
  }

  /** The agent's `session/list` for `folder`, without the sessions open now; asked once until it changes. */
  async list(agent: string, client: AgentClient, folder: string, open: ReadonlySet<string>): Promise<PastSession[]> {
    let listing = this.listed.get(agent);
    if (!listing) {
      listing = client.listSessions(folder);
      this.listed.set(agent, listing);
      // A failed listing is asked again next time.
      listing.catch(() => this.listed.get(agent) === listing && this.listed.delete(agent));
    }
    return (await listing).filter((s) => !open.has(s.id));
  }

  /**
   * A past session in a panel again: loaded (its conversation replayed into the panel) or
   * resumed, then in the asking mode as a new one is. One shown already, of the running agent,
   * is revealed; one whose agent has ended gives its panel to the reopened one. A session the
   * agent no longer has is forgotten.
   */
  async reopen(which: Reopening, steps: ReopenSteps): Promise<SessionPanel> {
    const { agent, client, sessionId, shown } = which;
    if (shown && client.session(sessionId) === shown.session) {
      shown.reveal();
      return shown;
    }
    if (!canReopen(client.sessionSupport)) throw new Error(`${noPastSessions(agent)}, so it cannot reopen one.`);
    if (!which.cwd) throw new Error('Open a folder first: an agent works in a folder, and reads and writes only inside it.');
    if (shown) steps.dropPanel(shown);
    let panel: SessionPanel | undefined;
    const known = which.title ?? this.find(agent, sessionId)?.title ?? shown?.session.label;
    try {
      const { session, replayed } = await client.reopenSession({
        sessionId,
        cwd: which.cwd,
        ...(known !== undefined && { title: known }),
        onSession: (s) => {
          panel = steps.addPanel(s, `Reopening the session: ${agent} replays the conversation…`);
          panel.reveal();
        },
      });
      panel!.reopened(replayed);
      await steps.startMode(session);
      return panel!;
    } catch (error) {
      if (panel) steps.dropPanel(panel);
      if ((error as { code?: unknown }).code === NOT_FOUND) void this.forget(agent, sessionId).then(() => steps.forgotten());
      throw new Error(`${agent} could not reopen the session${known ? ` "${known}"` : ''}: ${errorMessage(error)}`, { cause: error });
    }
  }
}
