/** An action as a host pushes it (`action` notifications, a reconnect's replay), checked, and who wrote it. Pure. */
import { AHP_LIMITS } from './names';
import { count, id, optional, record, text } from './check';

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
