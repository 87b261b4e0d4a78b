/**
 * Tokens of their own for the agents we start ourselves (ACP sessions), beside the
 * workspace's token: each is issued for one agent's session, reaches only the served
 * servers' endpoints, and ends with the session. A request that carries one is known to
 * come from that agent and that session, so the questions its calls raise are headed with
 * both ("restaurant · book, for claude in session 'fix the tests'") rather than with what
 * the agent says it is. Kept by their digest: no token is held in clear after it is issued.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Who a grant's requests come from. */
export interface AgentGrant {
  /** The agent as the person configured it (we vouch for it). */
  readonly agent: string;
  /** The session's title at the moment it is asked (it changes as the session goes). */
  session(): string | undefined;
}

export interface IssuedGrant {
  /** Sent as `Authorization: Bearer <token>` (HTTP) or in the bridge's environment (stdio). */
  readonly token: string;
  /** The token stops working at once; calls in flight keep the caller they had. */
  revoke(): void;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class AgentGrants {
  private readonly live = new Map<string, AgentGrant>();

  issue(grant: AgentGrant): IssuedGrant {
    const token = randomBytes(32).toString('base64url');
    const key = digest(token);
    this.live.set(key, grant);
    return { token, revoke: () => void this.live.delete(key) };
  }

  /** The grant a token was issued for, while it lives. */
  find(token: string): AgentGrant | undefined {
    return this.live.get(digest(token));
  }

  get size(): number {
    return this.live.size;
  }

  /** Every grant ends (the gateway closes). */
  clear(): void {
    this.live.clear();
  }
}
