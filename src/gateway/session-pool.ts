/**
 * Which 2025-era sessions of one endpoint are kept when a new one needs room. Agents do not
 * always close theirs (64 short `claude -p` runs leave 64 behind), so the endpoint bounds
 * them, in total and per client, and makes room by closing idle sessions only, least
 * recently used first: never one with a request in flight (a call, and with it any question
 * the call asks: questions are asked only during a call of that session). When every session
 * that could go is busy, the new session is refused instead.
 *
 * "Client" is what an agent says it is (`clientInfo.name`): every `claude -p` run says
 * `claude-code`, so one agent's runs fill its own share and push out its own sessions before
 * anyone else's. Every agent sends the same token, so the token tells no agents apart.
 */

export interface SessionLimits {
  /** Sessions kept at once, all clients together. */
  readonly total: number;
  /** Sessions kept at once for one client (one `clientInfo.name`). */
  readonly perClient: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { total: 64, perClient: 32 };

interface Entry<S> {
  readonly session: S;
  readonly client: string;
  /** Requests of this session in flight now. */
  inFlight: number;
}

export type Admission<S> =
  | { readonly ok: true; /** Idle sessions to close for the new one, already out of the pool. */ readonly evicted: readonly S[] }
  | { readonly ok: false; readonly message: string };

export class SessionPool<S> {
  /** In use order: the least recently used first (a use moves an entry to the end). */
  private readonly entries = new Map<string, Entry<S>>();
  /** Sessions admitted but not initialized yet, per client: they count against the bounds. */
  private readonly admitted = new Map<string, number>();

  constructor(private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): S | undefined {
    return this.entries.get(id)?.session;
  }

  sessions(): S[] {
    return [...this.entries.values()].map((e) => e.session);
  }

  /**
   * Makes room for a new session of `client`: the idle sessions that must go (out of the pool
   * already; the caller closes them), or why none can. An admission is followed by `add`
   * once the session has its id, or `withdraw` when it never gets one.
   */
  admit(client: string, server: string): Admission<S> {
    const evicted = new Set<string>();
    const pending = (of?: string): number =>
      of === undefined ? [...this.admitted.values()].reduce((a, b) => a + b, 0) : (this.admitted.get(of) ?? 0);
    const held = (of?: string): number => [...this.entries].filter(([id, e]) => !evicted.has(id) && (of === undefined || e.client === of)).length + pending(of);
    const idlest = (of?: string): string | undefined => {
      for (const [id, entry] of this.entries) if (!evicted.has(id) && entry.inFlight === 0 && (of === undefined || entry.client === of)) return id;
      return undefined;
    };
    while (held(client) >= this.limits.perClient) {
      const id = idlest(client);
      if (id === undefined) return { ok: false, message: refusal(`${client} has ${held(client)} session${held(client) === 1 ? '' : 's'} with ${server}`) };
      evicted.add(id);
    }
    while (held() >= this.limits.total) {
      const id = idlest();
      if (id === undefined) return { ok: false, message: refusal(`${server} has ${held()} sessions open`) };
      evicted.add(id);
    }
    const sessions = [...evicted].map((id) => this.entries.get(id)!.session);
    for (const id of evicted) this.entries.delete(id);
    this.admitted.set(client, pending(client) + 1);
    return { ok: true, evicted: sessions };
  }

  /** The admitted session of `client` got its id. */
  add(id: string, client: string, session: S): void {
    this.withdraw(client);
    this.entries.set(id, { session, client, inFlight: 0 });
  }

  /** An admission of `client` that never became a session. */
  withdraw(client: string): void {
    const pending = (this.admitted.get(client) ?? 0) - 1;
    if (pending > 0) this.admitted.set(client, pending);
    else this.admitted.delete(client);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  /** The session was used (any request): it becomes the most recently used. */
  touch(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  /** A request of the session is in flight until the returned function is called (once). */
  begin(id: string): () => void {
    const entry = this.entries.get(id);
    if (!entry) return () => undefined;
    entry.inFlight++;
    this.touch(id);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.inFlight--;
      this.touch(id);
    };
  }

  /** Empties the pool; returns what it held. */
  clear(): S[] {
    const all = this.sessions();
    this.entries.clear();
    this.admitted.clear();
    return all;
  }
}

function refusal(what: string): string {
  return `${what}, every one of them busy with a call; the gateway ends no call to make room. Try again when a call ends, or close a session you no longer use.`;
}
