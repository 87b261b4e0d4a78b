/** The connection's own messages: the handshake (`initialize`), `subscribe`'s snapshot, a refused version's list, and what `reconnect` recovered, in either of its shapes. Pure. */
import { isRecord } from '../../base/is-record';
import { type ActionEnvelope, readActionEnvelope } from './envelope';
import { AHP_LIMITS } from './names';
import { count, fail, id, list, optional, record, text } from './check';

export interface Implementation {
  readonly name: string;
  readonly version?: string;
}

export interface Snapshot {
  readonly resource: string;
  /** Checked as the channel's state when used (readSessionState, readConversation...). */
  readonly state: Record<string, unknown>;
  readonly fromSeq?: number;
}

export interface InitializeResult {
  readonly protocolVersion: string;
  readonly serverSeq: number;
  readonly snapshots: readonly Snapshot[];
  readonly serverInfo?: Implementation;
}

function readSnapshot(v: unknown, path: string): Snapshot {
  const s = record(v, path);
  const fromSeq = optional(s.fromSeq, (x) => count(x, `${path}.fromSeq`));
  return { resource: id(s.resource, `${path}.resource`), state: record(s.state, `${path}.state`), ...(fromSeq !== undefined && { fromSeq }) };
}

export function readSubscribeResult(v: unknown): Snapshot | undefined {
  const r = record(v, 'result');
  return r.snapshot === undefined || r.snapshot === null ? undefined : readSnapshot(r.snapshot, 'result.snapshot');
}

export function readInitializeResult(v: unknown): InitializeResult {
  const r = record(v, 'result');
  const version = text(r.protocolVersion, 'result.protocolVersion', 32);
  const info = optional(r.serverInfo, (x) => {
    const i = record(x, 'result.serverInfo');
    const version = optional(i.version, (y) => text(y, 'result.serverInfo.version', AHP_LIMITS.labelChars));
    return { name: text(i.name, 'result.serverInfo.name', AHP_LIMITS.labelChars), ...(version !== undefined && { version }) };
  });
  return {
    protocolVersion: version,
    serverSeq: count(r.serverSeq, 'result.serverSeq'),
    snapshots: list(r.snapshots ?? [], 'result.snapshots', AHP_LIMITS.sessions, 'snapshot', readSnapshot),
    ...(info && { serverInfo: info }),
  };
}

/** The versions a host says it accepts, from a -32005 error's data (`supportedVersions`). */
export function readSupportedVersions(data: unknown): string[] {
  if (!isRecord(data) || !Array.isArray(data.supportedVersions)) return [];
  return data.supportedVersions.filter((x): x is string => typeof x === 'string' && x.length <= 32).slice(0, 20);
}

/** What a reconnect recovered, whichever of the two shapes the host answered in. */
export interface Recovery {
  readonly actions: readonly ActionEnvelope[];
  readonly snapshots: readonly Snapshot[];
  readonly missing: readonly string[];
}

const MAX_REPLAY = 100_000;

export function readReconnectResult(v: unknown): Recovery {
  const r = record(v, 'result');
  if (Array.isArray(r.channels)) {
    // 1.x: one outcome per channel.
    const actions: ActionEnvelope[] = [];
    const snapshots: Snapshot[] = [];
    const missing: string[] = [];
    list(r.channels, 'result.channels', AHP_LIMITS.sessions * 4, 'channel', (x, path) => {
      const c = record(x, path);
      if (c.kind === 'replay') actions.push(...list(c.actions, `${path}.actions`, MAX_REPLAY, 'action', readActionEnvelope));
      else if (c.kind === 'snapshot') snapshots.push(readSnapshot(c.snapshot, `${path}.snapshot`));
      else if (c.kind === 'missing') missing.push(id(c.channel, `${path}.channel`));
      else fail(`${path}.kind`, 'must be replay, snapshot or missing');
    });
    return { actions: actions.sort((a, b) => a.serverSeq - b.serverSeq), snapshots, missing };
  }
  if (r.type === 'replay') {
    return { actions: list(r.actions, 'result.actions', MAX_REPLAY, 'action', readActionEnvelope), snapshots: [], missing: list(r.missing ?? [], 'result.missing', AHP_LIMITS.sessions * 4, 'channel', id) };
  }
  if (r.type === 'snapshot') return { actions: [], snapshots: list(r.snapshots, 'result.snapshots', AHP_LIMITS.sessions * 4, 'snapshot', readSnapshot), missing: [] };
  return fail('result', 'must be a replay or a snapshot');
}
