/**
 * An AHP client of one agent host: the handshake (`initialize`, offering the versions of
 * wire/versions.ts and refusing a pick we did not offer), subscriptions, our writes
 * (`dispatchAction`, each with its client sequence number and kept until the host echoes
 * it), `ping`, and the connection's life: when the socket drops it reconnects with backoff
 * and sends `reconnect` with what it last saw (one watermark on 0.x, one cursor per channel
 * on 1.x), so the host replays what was missed; a host that cannot (it forgot us) gets a
 * fresh `initialize` and fresh snapshots. Actions reach the listener once each, in order,
 * after the snapshot of their channel; writes the host never echoed are sent again.
 */
import { randomUUID } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { AhpError, noCommonVersion, protocolViolation } from './errors';
import { type Endpoint, socketAddress } from './endpoint';
import { loopbackConnection } from './loopback-connection';
import type { AhpLog } from './ports';
import { WireError } from './wire/check';
import { type Implementation, readInitializeResult, readReconnectResult, readSubscribeResult, readSupportedVersions, type Recovery, type Snapshot } from './wire/connection';
import { type ActionEnvelope, readActionEnvelope } from './wire/envelope';
import { ERROR_CODES, ROOT_CHANNEL } from './wire/names';
import { OFFERED_VERSIONS, VERSION_TABLE } from './wire/versions';
import { DEFAULT_REQUEST_TIMEOUT_MS, RpcSocket } from './rpc';

export type HostStatus = 'connected' | 'reconnecting' | 'closed';

export interface HostListener {
  /** A channel's state, whole: after subscribe, initialize, or a reconnect that could not replay. */
  snapshot(snapshot: Snapshot): void;
  /** An action on a subscribed channel, after that channel's snapshot, each once. */
  action(envelope: ActionEnvelope): void;
  /** A root notification (`root/sessionAdded`...), params unchecked. */
  notification(method: string, params: unknown): void;
  /** A subscribed channel the host no longer has. */
  missing(channel: string): void;
  /** The connection came back: `fresh` when the host had forgotten us and everything was re-read. */
  reconnected(how: 'replay' | 'fresh'): void;
  status(status: HostStatus, error?: AhpError): void;
}

export interface HostClientOptions {
  readonly endpoint: Endpoint;
  readonly token?: string;
  readonly clientInfo: Implementation;
  readonly log: AhpLog;
  /** The versions offered, most preferred first (default: wire/versions.ts's table). */
  readonly versions?: readonly string[];
  readonly requestTimeoutMs?: number;
  /** How often to ping a quiet host (0: never). */
  readonly pingIntervalMs?: number;
  /** The waits before each reconnect attempt; when they run out the client closes. */
  readonly reconnectDelaysMs?: readonly number[];
  /**
   * Whether a write the host never echoed still makes sense after a reconnect (the request it
   * answers is still open). Without it every such write is sent again.
   */
  readonly stillWanted?: (channel: string, action: Readonly<Record<string, unknown>>) => boolean;
  /** How a ws:// address's name is resolved (the system's lookup); a test answers as a resolver pointing elsewhere would. */
  readonly resolve?: LookupFunction;
  /** Told each action's arrival (its type), before anything is done with it: for `npm run bench`, set only in its build. */
  readonly timings?: (record: { readonly event: 'ahpAction'; readonly type: string; readonly at: number }) => void;
}

const DEFAULT_DELAYS = [250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000, 30_000, 30_000];

interface Channel {
  /** The last serverSeq applied; undefined until its snapshot arrived. */
  seq?: number;
  /** Actions that came before the snapshot. */
  early: ActionEnvelope[];
}

export class HostClient {
  readonly clientId = randomUUID();
  private socket: RpcSocket | undefined;
  private version = '';
  private info: Implementation | undefined;
  private readonly channels = new Map<string, Channel>();
  /** The watermark (0.x): the highest serverSeq seen on any channel. */
  private lastSeen = 0;
  private clientSeq = 0;
  private readonly unechoed = new Map<number, { readonly channel: string; readonly action: Record<string, unknown> }>();
  private state: HostStatus = 'connected';
  private ping: NodeJS.Timeout | undefined;
  private stopReconnecting: (() => void) | undefined;
  private readonly host: string;
  /** Set while a reconnect recovers: the live actions that arrived meanwhile. */
  private recovering: ActionEnvelope[] | undefined;
  private resumed = false;

  private constructor(
    private readonly options: HostClientOptions,
    private readonly listener: HostListener,
  ) {
    this.host = options.endpoint.display;
  }

  /** Connects and initializes, subscribed to the root. Rejects with an AhpError saying what failed. */
  static async connect(options: HostClientOptions, listener: HostListener): Promise<HostClient> {
    const client = new HostClient(options, listener);
    await client.open();
    try {
      await client.initialize();
    } catch (error) {
      client.socket?.close();
      throw error;
    }
    client.startPinging();
    return client;
  }

  get protocolVersion(): string {
    return this.version;
  }

  get serverInfo(): Implementation | undefined {
    return this.info;
  }

  get status(): HostStatus {
    return this.state;
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    if (!this.socket) return Promise.reject(new AhpError('closed', `not connected to the agent host at ${this.host}`));
    return this.socket.request(method, { channel: ROOT_CHANNEL, ...params }, this.options.requestTimeoutMs);
  }

  /** Subscribes (once per channel); its snapshot reaches the listener before any of its actions. */
  async subscribe(channel: string): Promise<void> {
    if (this.channels.has(channel)) return;
    const socket = this.socket;
    // While reconnecting, nothing new is subscribed: the caller lists again once reconnected.
    if (!socket || this.recovering) throw new AhpError('closed', `not connected to the agent host at ${this.host}`);
    this.channels.set(channel, { early: [] });
    try {
      const snapshot = readSubscribeResult(await socket.request('subscribe', { channel }, this.options.requestTimeoutMs));
      if (snapshot) this.takeSnapshots([snapshot]);
      else this.channels.get(channel)!.seq = this.lastSeen;
    } catch (error) {
      this.channels.delete(channel);
      throw error;
    }
  }

  unsubscribe(channel: string): void {
    if (!this.channels.delete(channel)) return;
    this.socket?.notify('unsubscribe', { channel });
  }

  /** Sends a write; kept until the host echoes it, sent again after a reconnect. Returns its client sequence number. */
  dispatch(channel: string, action: Record<string, unknown>): number {
    const clientSeq = ++this.clientSeq;
    this.unechoed.set(clientSeq, { channel, action });
    this.socket?.notify('dispatchAction', { channel, clientSeq, action });
    return clientSeq;
  }

  close(): void {
    this.shutDown();
  }

  private shutDown(error?: AhpError): void {
    this.stopReconnecting?.();
    clearInterval(this.ping);
    this.socket?.close();
    this.socket = undefined;
    this.setStatus('closed', error);
  }

  private async open(): Promise<void> {
    const { endpoint } = this.options;
    // The token travels in clear over ws://: only to an address of this machine, checked before the upgrade is sent.
    const connection = endpoint.kind === 'url' && !endpoint.secure ? loopbackConnection(this.options.resolve) : undefined;
    const socket = await RpcSocket.open(socketAddress(endpoint, this.options.token), this.host, {
      notification: (method, params) => this.received(socket, method, params),
      closed: (error) => this.lost(socket, error),
    }, this.options.log, this.options.requestTimeoutMs, connection);
    this.socket = socket;
  }

  private get offered(): readonly string[] {
    return this.options.versions ?? OFFERED_VERSIONS;
  }

  private async initialize(): Promise<void> {
    const channels = [ROOT_CHANNEL, ...[...this.channels.keys()].filter((c) => c !== ROOT_CHANNEL)];
    let result;
    try {
      result = readInitializeResult(await this.socket!.request('initialize', {
        channel: ROOT_CHANNEL,
        protocolVersions: this.offered,
        clientId: this.clientId,
        clientInfo: this.options.clientInfo,
        initialSubscriptions: channels,
      }, this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
    } catch (error) {
      if (error instanceof AhpError && error.rpc?.code === ERROR_CODES.unsupportedProtocolVersion) throw noCommonVersion(this.host, readSupportedVersions(error.rpc.data), this.offered);
      if (error instanceof WireError) throw protocolViolation(this.host, `its initialize result: ${error.message}`);
      throw error;
    }
    if (!this.offered.includes(result.protocolVersion)) throw protocolViolation(this.host, `it chose AHP ${result.protocolVersion.slice(0, 32)}, which we did not offer (${this.offered.join(', ')})`);
    this.version = result.protocolVersion;
    this.info = result.serverInfo;
    this.lastSeen = result.serverSeq;
    for (const channel of channels) this.channels.set(channel, { early: [] });
    this.takeSnapshots(result.snapshots);
  }

  private takeSnapshots(snapshots: readonly Snapshot[]): void {
    for (const snapshot of snapshots) {
      const channel = this.channels.get(snapshot.resource);
      if (!channel) continue;
      channel.seq = snapshot.fromSeq ?? this.lastSeen;
      this.listener.snapshot(snapshot);
      const early = channel.early.splice(0);
      for (const envelope of early) this.apply(envelope);
    }
  }

  private received(socket: RpcSocket, method: string, params: unknown): void {
    if (socket !== this.socket) return;
    if (method !== 'action') {
      this.listener.notification(method, params);
      return;
    }
    const at = Date.now();
    const envelope = readActionEnvelope(params);
    this.options.timings?.({ event: 'ahpAction', type: envelope.action.type.slice(0, 100), at });
    // Live actions that overtake the reconnect's replay wait for it (else the replay would look old).
    if (this.recovering) this.recovering.push(envelope);
    else this.apply(envelope);
  }

  private apply(envelope: ActionEnvelope): void {
    if (envelope.origin?.clientId === this.clientId) this.unechoed.delete(envelope.origin.clientSeq);
    const channel = this.channels.get(envelope.channel);
    if (!channel) return;
    if (channel.seq === undefined) {
      channel.early.push(envelope);
      return;
    }
    // Already in the snapshot, or seen before a reconnect replayed it.
    if (envelope.serverSeq <= channel.seq) return;
    channel.seq = envelope.serverSeq;
    this.lastSeen = Math.max(this.lastSeen, envelope.serverSeq);
    this.listener.action(envelope);
  }

  private startPinging(): void {
    const every = this.options.pingIntervalMs ?? 20_000;
    if (every <= 0) return;
    this.ping = setInterval(() => {
      const socket = this.socket;
      if (!socket || this.state !== 'connected') return;
      socket.request('ping', { channel: ROOT_CHANNEL }, Math.min(every, 10_000)).catch((error: Error) => {
        if (error instanceof AhpError && error.kind === 'timeout' && socket === this.socket) socket.drop('it did not answer a ping');
      });
    }, every);
    this.ping.unref();
  }

  private setStatus(status: HostStatus, error?: AhpError): void {
    if (this.state === status) return;
    this.state = status;
    this.listener.status(status, error);
  }

  /** The socket dropped: reconnect with backoff, then recover what was missed. */
  private lost(socket: RpcSocket, error: AhpError | undefined): void {
    if (socket !== this.socket || this.state === 'closed') return;
    this.socket = undefined;
    this.setStatus('reconnecting', error);
    void this.reconnect(error);
  }

  private async reconnect(lastError: AhpError | undefined): Promise<void> {
    let cancelled = false;
    let wake: (() => void) | undefined;
    this.stopReconnecting = () => {
      cancelled = true;
      wake?.();
    };
    let error = lastError;
    for (const delay of this.options.reconnectDelaysMs ?? DEFAULT_DELAYS) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, delay).unref();
      });
      if (cancelled) return;
      try {
        await this.open();
      } catch (failure) {
        error = failure as AhpError;
        // A refused token stays refused: asking again would only repeat it.
        if (error instanceof AhpError && error.kind === 'token-refused') break;
        continue;
      }
      if (cancelled) return this.socket?.close();
      try {
        await this.recover();
        this.setStatus('connected');
        return;
      } catch (failure) {
        error = failure instanceof AhpError ? failure : protocolViolation(this.host, (failure as Error).message);
        this.socket?.close();
        this.socket = undefined;
        if (error.kind === 'no-common-version' || error.kind === 'protocol') break;
      }
    }
    this.options.log.warn(`agent host ${this.host}: gave up reconnecting${error ? `: ${error.message}` : ''}`);
    this.stopReconnecting = undefined;
    this.shutDown(error);
  }

  private async recover(): Promise<void> {
    this.recovering = [];
    try {
      await this.resume();
    } finally {
      const overtaking = this.recovering;
      this.recovering = undefined;
      for (const envelope of overtaking) this.apply(envelope);
    }
    // What the host has not echoed by now is taken as lost; stillWanted leaves out what no longer applies.
    for (const [clientSeq, { channel, action }] of [...this.unechoed]) {
      this.unechoed.delete(clientSeq);
      if (this.options.stillWanted?.(channel, action) ?? true) this.dispatch(channel, action);
    }
    this.listener.reconnected(this.resumed ? 'replay' : 'fresh');
  }

  private async resume(): Promise<void> {
    let recovery: Recovery | undefined;
    const subscriptions = [...this.channels.keys()];
    try {
      const perChannel = VERSION_TABLE[this.version]?.reconnect === 'per-channel';
      const params = perChannel
        ? { channel: ROOT_CHANNEL, clientId: this.clientId, subscriptions: subscriptions.map((channel) => ({ channel, lastSeenServerSeq: this.channels.get(channel)?.seq ?? 0 })) }
        : { channel: ROOT_CHANNEL, clientId: this.clientId, lastSeenServerSeq: this.lastSeen, subscriptions };
      recovery = readReconnectResult(await this.socket!.request('reconnect', params, this.options.requestTimeoutMs));
    } catch (error) {
      if (error instanceof AhpError && error.kind !== 'refused') throw error;
      // The host forgot us (or replays in a shape we do not read): start afresh; the snapshots tell the truth.
      this.options.log.info(`agent host ${this.host}: could not resume (${(error as Error).message.slice(0, 200)}); reading everything again`);
    }
    if (recovery) {
      for (const channel of recovery.missing) {
        this.channels.delete(channel);
        this.listener.missing(channel);
      }
      this.takeSnapshots(recovery.snapshots);
      for (const envelope of recovery.actions) this.apply(envelope);
    } else {
      for (const channel of this.channels.values()) channel.seq = undefined;
      await this.initialize();
      // Channels the fresh initialize did not return are gone.
      for (const [uri, channel] of this.channels) {
        if (channel.seq !== undefined) continue;
        this.channels.delete(uri);
        this.listener.missing(uri);
      }
    }
    this.resumed = recovery !== undefined;
  }
}
