/**
 * Servers the person told to stop asking ("Decline and stop asking"), for this session:
 * their questions are declined without showing anything, and logged. The Servers view
 * shows the muted state and undoes it. Questions asked by other extensions are not muted
 * here: an extension names itself, so a name is no handle on it; nor are the questions of
 * a call the person started.
 */
import type { RequestSource } from '../../elicitation/request';
import { sourceLabel } from '../text';

export interface MuteLog {
  info(message: string): void;
}

export class MutedServers {
  private readonly names = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly log: MuteLog) {}

  /**
   * A source whose questions can be muted: an MCP server (directly or for an agent), in a
   * call the person did not start. Their own calls (Run Tool, its arguments prompt
   * included) are asked even while the server is muted: they are waiting for them.
   */
  static canMute(source: RequestSource): boolean {
    return source.requester !== 'extension' && !source.personStarted;
  }

  has(server: string): boolean {
    return this.names.has(server);
  }

  mute(server: string): void {
    if (this.names.has(server)) return;
    this.names.add(server);
    this.log.info(`${server} is muted for this session: its questions are declined without asking (Servers view: Unmute Questions)`);
    this.changed();
  }

  unmute(server: string): void {
    if (!this.names.delete(server)) return;
    this.log.info(`${server} is unmuted: its questions are asked again`);
    this.changed();
  }

  /** The broker's hook: true when this question is to be declined unseen (and then it is logged). */
  declines(source: RequestSource): boolean {
    if (!MutedServers.canMute(source) || !this.names.has(source.server)) return false;
    this.log.info(`Declined a question from ${sourceLabel(source)} without asking: the server is muted`);
    return true;
  }

  /** Calls `listener` on every change; returns the way to stop. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.listeners.forEach((listener) => listener());
  }
}
