/**
 * The agent host inbox: a client of one agent host (client.ts) that watches the root, every
 * session and every chat, and puts each open question to the person through the broker,
 * headed with the agent, the host and the session's title: an input request as
 * input-prompt.ts asks it, a tool call waiting for a confirmation as a permission
 * (tool-confirmation.ts). What the host withdraws (answered by another client, its turn
 * over, its chat gone, the connection lost for good) closes our prompt at once, and the
 * History says why. After a dropped connection the host replays what we missed: a question
 * still open stays the one prompt it was, none is lost and none is shown twice.
 */
import type { Broker } from '../elicitation/broker';
import type { RequestSource } from '../elicitation/request';
import type { InputStore } from '../elicitation/store';
import { type HostClientOptions, HostClient, type HostStatus } from './client';
import { Conversation, type Closing, type ConversationListener, type OpenItem } from './conversation';
import type { AhpError } from './errors';
import { InputPrompt } from './input-prompt';
import type { AhpLog } from './ports';
import { readAction } from './wire/actions';
import { readSessionState } from './wire/channel-state';
import { WireError } from './wire/check';
import type { Snapshot } from './wire/connection';
import { type ActionEnvelope, authorOf } from './wire/envelope';
import { ROOT_CHANNEL } from './wire/names';
import { type AgentInfo, readListSessions, readRootState, readSessionAdded, readSessionRemoved, readSessionSummaryChanged, type SessionSummary } from './wire/root';
import { toolCallConfirmedAction } from './wire/writes';
import { toolQuestion } from './tool-confirmation';

/** The reason a prompt closes when another client answered it (history.ts reads it as "answered elsewhere"). */
export const ANSWERED_ELSEWHERE = 'answered in another client';
/** The reason a prompt closes when the host no longer asks it (history.ts reads it as "withdrawn"). */
export const WITHDREW = 'the agent withdrew the question';

const ELSEWHERE_WORDS: Readonly<Record<string, string>> = { accept: 'accepted', decline: 'declined', cancel: 'dismissed', approved: 'allowed', denied: 'denied', completed: 'done' };

/** One question the inbox put to the person, as the runner and the UI report it. */
export interface InboxItem {
  readonly key: string;
  readonly kind: 'input' | 'tool';
  readonly session: string;
  readonly sessionTitle?: string;
  readonly agent: string;
  /** The request's or tool call's id on the host. */
  readonly id: string;
  readonly source: RequestSource;
}

export type InboxOutcome = 'accept' | 'decline' | 'cancel' | 'approved' | 'denied';

export interface InboxEvents {
  /** The handshake is done; the sessions are read next. */
  connected?(protocolVersion: string): void;
  asked?(item: InboxItem): void;
  answered?(item: InboxItem, outcome: InboxOutcome): void;
  withdrawn?(item: InboxItem, reason: string): void;
  /** A question that could not be put to the person (over a limit, a bad shape): the host was not answered. */
  refused?(item: InboxItem | undefined, reason: string): void;
  status?(status: HostStatus, error?: AhpError): void;
  /** The host's agents, as its root state lists them (at start and on each change). */
  agents?(agents: readonly AgentInfo[]): void;
}

export interface InboxOptions extends Omit<HostClientOptions, 'stillWanted'> {
  readonly broker: Broker;
  readonly store: InputStore;
  /** The host as the person named it (default: its address). */
  readonly hostName?: string;
  /** Watch only these sessions (the runner's --session). */
  readonly sessions?: (uri: string) => boolean;
  readonly applyDefaults?: () => boolean;
  readonly events?: InboxEvents;
}

interface Session {
  readonly uri: string;
  provider?: string;
  title?: string;
  chats: Set<string>;
}

interface Asking {
  readonly item: InboxItem;
  /** Another client's draft or answer, for an input request. */
  readonly remoteAnswer?: InputPrompt['remoteAnswer'];
  withdraw(reason: string): void;
  readonly done: Promise<void>;
}

export class AgentHostInbox {
  private client!: HostClient;
  private readonly sessions = new Map<string, Session>();
  private readonly conversations = new Map<string, Conversation>();
  private readonly asking = new Map<string, Asking>();
  private readonly subscribing = new Set<Promise<void>>();
  private asksNew = true;
  private agents: readonly AgentInfo[] = [];
  private readonly log: AhpLog;
  private readonly events: InboxEvents;
  private readonly hostName: string;

  private constructor(private readonly options: InboxOptions) {
    this.log = options.log;
    this.events = options.events ?? {};
    this.hostName = options.hostName ?? options.endpoint.display.replace(/^wss?:\/\//, '');
  }

  /** Connects, then reads every session and chat; their open questions are being asked when it resolves. */
  static async open(options: InboxOptions): Promise<AgentHostInbox> {
    const inbox = new AgentHostInbox(options);
    inbox.client = await HostClient.connect({ ...options, stillWanted: (channel, action) => inbox.stillWanted(channel, action) }, {
      snapshot: (snapshot) => inbox.guard(`the ${snapshot.resource} snapshot`, () => inbox.snapshot(snapshot)),
      action: (envelope) => inbox.guard(`a ${envelope.action.type.slice(0, 100)} action`, () => inbox.action(envelope), /\/(inputRequested|toolCallReady)$/.test(envelope.action.type)),
      notification: (method, params) => inbox.guard(`a ${method} notification`, () => inbox.notification(method, params)),
      missing: (channel) => inbox.dropChannel(channel, 'the agent host no longer has it'),
      reconnected: () => void inbox.sync(),
      status: (status, error) => {
        if (status === 'closed') for (const uri of [...inbox.sessions.keys()]) inbox.dropSession(uri, 'the connection to the agent host was lost');
        inbox.events.status?.(status, error);
      },
    });
    inbox.events.connected?.(inbox.client.protocolVersion);
    await inbox.sync();
    return inbox;
  }

  get protocolVersion(): string {
    return this.client.protocolVersion;
  }

  /** The host's agents (providers and their names), as its root state lists them. */
  get agentList(): readonly AgentInfo[] {
    return this.agents;
  }

  /** Questions being asked now. */
  get open(): readonly InboxItem[] {
    return [...this.asking.values()].map((a) => a.item);
  }

  /** Settles when every question being asked now is answered or withdrawn. */
  async settled(): Promise<void> {
    await Promise.all([...this.asking.values()].map((a) => a.done));
  }

  /** Asks nothing that opens from now on (the runner without --watch: what was open when it connected). */
  stopAsking(): void {
    this.asksNew = false;
  }

  /** Disconnects; every open prompt closes (withdrawn: the connection was closed). */
  close(): void {
    // Before the client closes: its 'closed' status would call them lost.
    for (const uri of [...this.sessions.keys()]) this.dropSession(uri, 'the connection to the agent host was closed');
    this.client.close();
  }

  /**
   * A message the checkers refused, or a slip of ours: logged and dropped, never thrown at the
   * caller. A question refused so (over a limit, say) is told too: nobody was asked it.
   */
  private guard(what: string, run: () => void, question = false): void {
    try {
      run();
    } catch (error) {
      const reason = `agent host ${this.hostName}: dropped ${what}: ${error instanceof WireError ? error.message : String(error)}`;
      this.log.warn(reason);
      if (question) this.events.refused?.(undefined, reason);
    }
  }

  /** Lists the sessions and subscribes to the new ones (at start and after each reconnect: notifications are not replayed). */
  private async sync(): Promise<void> {
    let listed;
    try {
      listed = readListSessions(await this.client.request('listSessions'));
    } catch (error) {
      this.log.warn(`agent host ${this.hostName}: could not list its sessions: ${(error as Error).message}`);
      return;
    }
    if (listed.omitted > 0) this.log.warn(`agent host ${this.hostName}: ${listed.omitted} sessions beyond the first ${listed.sessions.length} (AHP_LIMITS.sessions) are not watched`);
    const present = new Set(listed.sessions.map((s) => s.resource));
    for (const uri of [...this.sessions.keys()]) if (!present.has(uri)) this.dropSession(uri, 'the session was removed');
    await Promise.all(listed.sessions.map((summary) => this.addSession(summary)));
    // A session's snapshot subscribes its chats in turn: done when nothing is left in flight.
    while (this.subscribing.size > 0) await Promise.all([...this.subscribing]);
  }

  private async addSession(summary: SessionSummary): Promise<void> {
    if (this.options.sessions && !this.options.sessions(summary.resource)) return;
    const known = this.sessions.get(summary.resource);
    if (known) {
      if (summary.title !== undefined) known.title = summary.title;
      return;
    }
    this.sessions.set(summary.resource, { uri: summary.resource, ...(summary.provider !== undefined && { provider: summary.provider }), ...(summary.title !== undefined && { title: summary.title }), chats: new Set() });
    await this.subscribe(summary.resource);
  }

  private subscribe(channel: string): Promise<void> {
    const subscribing = this.client.subscribe(channel).catch((error: Error) => {
      this.log.warn(`agent host ${this.hostName}: could not subscribe to ${channel}: ${error.message}`);
    });
    this.subscribing.add(subscribing);
    return subscribing.finally(() => this.subscribing.delete(subscribing));
  }

  private snapshot(snapshot: Snapshot): void {
    const { resource, state } = snapshot;
    if (resource === ROOT_CHANNEL) {
      this.agents = readRootState(state).agents;
      this.events.agents?.(this.agents);
      return;
    }
    const session = this.sessions.get(resource);
    if (session) {
      const view = readSessionState(state);
      if (view.title !== undefined) session.title = view.title;
      // A session without chats is of the earlier generation: its own state holds its questions.
      if (view.chats.length === 0) this.conversation(resource, 'session').reset(state);
      for (const chat of view.chats) this.addChat(session, chat);
      return;
    }
    this.conversations.get(resource)?.reset(state);
  }

  private addChat(session: Session, chat: string): void {
    if (session.chats.has(chat)) return;
    session.chats.add(chat);
    this.conversation(chat, 'chat');
    void this.subscribe(chat);
  }

  private conversation(channel: string, naming: 'chat' | 'session'): Conversation {
    let conversation = this.conversations.get(channel);
    if (!conversation) {
      conversation = new Conversation(channel, naming, this.listener(), this.log, () => this.client.clientId);
      this.conversations.set(channel, conversation);
    }
    return conversation;
  }

  private action(envelope: ActionEnvelope): void {
    const { channel } = envelope;
    if (envelope.rejectionReason !== undefined && authorOf(envelope, this.client.clientId) === 'us') return this.refusedOurs(envelope);
    if (channel === ROOT_CHANNEL) {
      const action = readAction(envelope.action);
      if (action.type === 'agentsChanged') {
        this.agents = action.agents;
        this.events.agents?.(this.agents);
      }
      return;
    }
    const session = this.sessions.get(channel);
    if (session && envelope.rejectionReason === undefined) {
      const action = readAction(envelope.action);
      if (action.type === 'titleChanged') session.title = action.title;
      if (action.type === 'chatAdded') this.addChat(session, action.chat);
      if (action.type === 'chatRemoved') this.dropChannel(action.chat, 'the chat was removed');
    }
    this.conversations.get(channel)?.apply(envelope);
  }

  private notification(method: string, params: unknown): void {
    if (method === 'root/sessionAdded') void this.addSession(readSessionAdded(params));
    else if (method === 'root/sessionRemoved') this.dropSession(readSessionRemoved(params), 'the session was removed');
    else if (method === 'root/sessionSummaryChanged') {
      const change = readSessionSummaryChanged(params);
      const session = this.sessions.get(change.session);
      if (session && change.title !== undefined) session.title = change.title;
    }
  }

  private dropSession(uri: string, why: string): void {
    const session = this.sessions.get(uri);
    if (!session) return;
    this.sessions.delete(uri);
    for (const chat of session.chats) this.dropChannel(chat, why);
    this.dropChannel(uri, why);
  }

  private dropChannel(channel: string, why: string): void {
    const conversation = this.conversations.get(channel);
    this.conversations.delete(channel);
    for (const session of this.sessions.values()) session.chats.delete(channel);
    conversation?.closeAll(why);
    this.client.unsubscribe(channel);
  }

  /** The host refused a write of ours: said, and the question asked again if the host still asks it. */
  private refusedOurs(envelope: ActionEnvelope): void {
    const reason = `the agent host refused our ${envelope.action.type.slice(0, 100)}: ${envelope.rejectionReason}`;
    this.log.warn(`agent host ${this.hostName}: ${reason}`);
    const action = envelope.action as { requestId?: unknown; toolCallId?: unknown };
    const conversation = this.conversations.get(envelope.channel);
    const id = typeof action.requestId === 'string' ? `${envelope.channel}\ninput\n${action.requestId}` : typeof action.toolCallId === 'string' ? `${envelope.channel}\ntool\n${action.toolCallId}` : undefined;
    const item = id === undefined ? undefined : conversation?.item(id);
    if (!item || this.asking.has(item.key) || /inputAnswerChanged$/.test(envelope.action.type)) return;
    this.events.refused?.(undefined, reason);
    this.ask(item);
  }

  private stillWanted(channel: string, action: Readonly<Record<string, unknown>>): boolean {
    const conversation = this.conversations.get(channel);
    if (!conversation) return false;
    if (typeof action.requestId === 'string') return conversation.openRequest(action.requestId) !== undefined;
    if (typeof action.toolCallId === 'string') return conversation.hasToolCall(action.toolCallId);
    return false;
  }

  private listener(): ConversationListener {
    return {
      opened: (item) => this.ask(item),
      // Our own drafts come back from the host: only what others wrote goes into the prompt.
      answerChanged: (key, questionId, answer, by) => {
        if (by !== 'us') this.asking.get(key)?.remoteAnswer?.(questionId, answer);
      },
      closed: (key, closing) => this.closed(key, closing),
      refused: (reason) => {
        this.log.warn(reason);
        this.events.refused?.(undefined, reason);
      },
    };
  }

  private closed(key: string, closing: Closing): void {
    const asking = this.asking.get(key);
    if (!asking) return;
    if (closing.kind === 'answered' && closing.by === 'us') return;
    const reason = closing.kind === 'answered' ? `${ANSWERED_ELSEWHERE} (${ELSEWHERE_WORDS[closing.how] ?? closing.how})` : `${WITHDREW}: ${closing.why}`;
    this.asking.delete(key);
    asking.withdraw(reason);
    this.events.withdrawn?.(asking.item, reason);
  }

  /** Who asks: the agent (the host's name for it), on which host, in which session. */
  private whoAsks(channel: string): { readonly session: Session | undefined; readonly agent: string } {
    const session = this.sessions.get(channel) ?? [...this.sessions.values()].find((s) => s.chats.has(channel));
    const provider = session?.provider;
    const named = this.agents.find((a) => a.provider === provider)?.displayName ?? provider ?? 'Agent';
    return { session, agent: `${named} (${this.hostName})` };
  }

  private ask(item: OpenItem): void {
    if (this.asking.has(item.key) || !this.asksNew) return;
    const { session, agent } = this.whoAsks(item.channel);
    // A new session's title is empty until its first turn names it.
    const title = session?.title?.trim() ? session.title : undefined;
    const base: RequestSource = { server: agent, requester: 'agent', ...(title !== undefined && { session: title }) };
    const id = item.kind === 'input' ? item.request.id : item.call.toolCallId;
    const send = (action: Record<string, unknown>): void => void this.client.dispatch(item.channel, action);
    if (item.kind === 'input') {
      const info: InboxItem = { key: item.key, kind: 'input', session: session?.uri ?? item.channel, ...(title !== undefined && { sessionTitle: title }), agent, id, source: base };
      const prompt = new InputPrompt({ broker: this.options.broker, store: this.options.store, log: this.log, applyDefaults: this.options.applyDefaults ?? (() => true) }, item.channel, item.naming, item.request, base, send);
      this.track(info, prompt.run().then((outcome) => (outcome === 'withdrawn' ? undefined : outcome)), (reason) => prompt.withdraw(reason), (q, a) => prompt.remoteAnswer(q, a));
      return;
    }
    const question = toolQuestion({ agent, ...(title !== undefined && { session: title }) }, item.call);
    const info: InboxItem = { key: item.key, kind: 'tool', session: session?.uri ?? item.channel, ...(title !== undefined && { sessionTitle: title }), agent, id, source: question.source };
    const withdrawn = new AbortController();
    const asked = this.options.broker.elicit(question.params, { ...question.context, signal: withdrawn.signal, applyDefaults: true }).then((result) => {
      if (withdrawn.signal.aborted) return undefined;
      const decision = question.decide(result);
      send(toolCallConfirmedAction(item.naming, item.channel, item.turnId, item.call.toolCallId, decision.approved, decision.selectedOptionId));
      return decision.approved ? ('approved' as const) : ('denied' as const);
    });
    this.track(info, asked, (reason) => withdrawn.abort(new Error(reason)));
  }

  private track(item: InboxItem, asked: Promise<InboxOutcome | undefined>, withdraw: (reason: string) => void, remoteAnswer?: InputPrompt['remoteAnswer']): void {
    const done = asked.then(
      (outcome) => {
        if (outcome === undefined) return;
        if (this.asking.get(item.key)?.item === item) this.asking.delete(item.key);
        this.events.answered?.(item, outcome);
      },
      (error: unknown) => {
        if (this.asking.get(item.key)?.item === item) this.asking.delete(item.key);
        const reason = error instanceof Error ? error.message : String(error);
        this.log.warn(`agent host ${this.hostName}: could not ask ${item.kind === 'tool' ? 'tool call' : 'request'} ${item.id}: ${reason}`);
        this.events.refused?.(item, reason);
      },
    );
    this.asking.set(item.key, { item, withdraw, done, ...(remoteAnswer && { remoteAnswer }) });
    this.events.asked?.(item);
  }
}
