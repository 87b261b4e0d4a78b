/**
 * One ACP session of an agent: its working directories (the only place it may read and
 * write through us), its modes and config options (current value always known), its
 * title, and its turns. Cancelling a turn tells the agent (`session/cancel`) and closes
 * every question and permission the turn has open: the permissions answer `cancelled`.
 */
import { basename } from 'node:path';
import type { ClientContext, ContentBlock, NewSessionResponse, SessionConfigOption, SessionModeState, SessionUpdate, SetSessionConfigOptionRequest, StopReason } from '@agentclientprotocol/sdk';
import { endedByThePerson } from '../base/ended-by-person';
import { Listeners } from '../base/listeners';
import type { GivenServer } from './ports';
import { type CommandView, type ConfigOptionView, configOptionViews, type ModeView, type SessionEvent, SessionUpdates } from './session-events';

const LABEL_CHARS = 40;

export class SessionOptionError extends Error {}

export class AgentSession {
  readonly events = new Listeners<SessionEvent>();
  readonly updates: SessionUpdates;
  private title: string | undefined;
  private firstPrompt: string | undefined;
  private modeState: { current: string; readonly available: readonly ModeView[] } | undefined;
  private options: readonly ConfigOptionView[];
  private commandList: readonly CommandView[] = [];
  private turn: AbortController | undefined;
  private readonly ended = new AbortController();

  constructor(
    private readonly agent: ClientContext,
    /** The configured agent's name: who asks. */
    readonly agentName: string,
    readonly id: string,
    /** The working directory, then any additional ones: where the agent may read and write. */
    readonly directories: readonly string[],
    /** `session/new`'s answer; a reopened session gets `session/load`'s or `session/resume`'s later (adopt). */
    response?: Pick<NewSessionResponse, 'modes' | 'configOptions'>,
    /** The MCP servers the agent was given at `session/new` (or when reopened), and why none were when none were. */
    readonly servers: { readonly given: readonly GivenServer[]; readonly note?: string } = { given: [] },
    /** A reopened session's title, as its list or this window last knew it. */
    title?: string,
  ) {
    this.options = [];
    if (response) this.adopt(response);
    if (title) this.title = title;
    this.updates = new SessionUpdates((id) => this.modeView(id));
  }

  /** The modes and options the agent gave with the session (after a reopened session's replay). */
  adopt(response: { readonly modes?: SessionModeState | null; readonly configOptions?: readonly SessionConfigOption[] | null }): void {
    if (response.modes) {
      this.modeState = {
        current: response.modes.currentModeId,
        available: response.modes.availableModes.map((m) => ({ id: m.id, name: m.name, ...(typeof m.description === 'string' && { description: m.description }) })),
      };
    }
    this.options = configOptionViews(response.configOptions ?? []);
  }

  get cwd(): string {
    return this.directories[0];
  }

  /** How the person knows this session: its title, else its first prompt, else its folder. */
  get label(): string {
    const text = (this.title ?? this.firstPrompt ?? basename(this.cwd)).replace(/\s+/g, ' ').trim();
    return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
  }

  get modes(): { readonly current: ModeView; readonly available: readonly ModeView[] } | undefined {
    return this.modeState && { current: this.modeView(this.modeState.current), available: this.modeState.available };
  }

  get configOptions(): readonly ConfigOptionView[] {
    return this.options;
  }

  get commands(): readonly CommandView[] {
    return this.commandList;
  }

  get running(): boolean {
    return this.turn !== undefined;
  }

  /** The turn running now, for a question that arrives during it (its signal closes the question). */
  currentTurn(): AbortController | undefined {
    return this.turn;
  }

  /** Fires when the session ends (the agent went away, the client closed). */
  get endSignal(): AbortSignal {
    return this.ended.signal;
  }

  /** Sends a prompt and resolves with the turn's stop reason; one turn at a time. */
  async prompt(prompt: string | readonly ContentBlock[]): Promise<StopReason> {
    if (this.turn) throw new SessionOptionError(`a turn of session '${this.label}' is running: wait for it or cancel it`);
    const blocks: ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : [...prompt];
    this.firstPrompt ??= blocks.find((b) => b.type === 'text')?.text;
    const turn = (this.turn = new AbortController());
    this.updates.startTurn();
    try {
      const response = await this.agent.request('session/prompt', { sessionId: this.id, prompt: blocks });
      this.events.fire({ type: 'turn-end', stopReason: response.stopReason });
      return response.stopReason;
    } finally {
      if (this.turn === turn) this.turn = undefined;
    }
  }

  /** Stops the turn: the agent is told, and the turn's open questions and permissions close. */
  cancel(): void {
    const turn = this.turn;
    if (!turn) return;
    // The person pressed Stop: their questions close without a notice saying so.
    turn.abort(endedByThePerson('the turn was cancelled'));
    void this.agent.notify('session/cancel', { sessionId: this.id }).catch(() => undefined);
    for (const toolCall of this.updates.cancelTurn()) this.events.fire({ type: 'tool-call', toolCall, first: false });
  }

  async setMode(modeId: string): Promise<void> {
    const state = this.modeState;
    if (!state) throw new SessionOptionError(`${this.agentName} offers no modes`);
    if (!state.available.some((m) => m.id === modeId)) {
      throw new SessionOptionError(`${this.agentName} has no mode "${modeId}"; it offers ${state.available.map((m) => `${m.id} (${m.name})`).join(', ')}`);
    }
    await this.agent.request('session/set_mode', { sessionId: this.id, modeId });
    this.changeMode(modeId);
  }

  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const option = this.options.find((o) => o.id === configId);
    if (!option) {
      throw new SessionOptionError(`${this.agentName} has no option "${configId}"; it offers ${this.options.map((o) => o.id).join(', ') || 'none'}`);
    }
    if (option.type === 'boolean' ? typeof value !== 'boolean' : !option.options.some((o) => o.value === value)) {
      const offered = option.type === 'boolean' ? 'true or false' : option.options.map((o) => o.value).join(', ');
      throw new SessionOptionError(`"${String(value)}" is not a value of ${this.agentName}'s option "${configId}"; it takes ${offered}`);
    }
    const params: SetSessionConfigOptionRequest = typeof value === 'boolean' ? { sessionId: this.id, configId, type: 'boolean', value } : { sessionId: this.id, configId, value };
    const response = await this.agent.request('session/set_config_option', params);
    this.applyConfigOptions(response.configOptions);
  }

  /** A `session/update` for this session. */
  receive(update: SessionUpdate): void {
    if (update.sessionUpdate === 'current_mode_update') {
      this.changeMode(update.currentModeId);
      return;
    }
    if (update.sessionUpdate === 'config_option_update') {
      this.applyConfigOptions(update.configOptions);
      return;
    }
    const event = this.updates.read(update);
    if (!event) return;
    if (event.type === 'title') this.title = event.title;
    // A reopened session's replay says the person's first words: the label until a title comes.
    if (event.type === 'message' && event.role === 'user') this.firstPrompt ??= event.text;
    if (event.type === 'commands') this.commandList = event.commands;
    this.events.fire(event);
  }

  /** Our side of the turn (a permission, a question): told to whoever renders the session. */
  tell(event: SessionEvent): void {
    this.events.fire(event);
  }

  /** The agent went away or the client closed: whatever is open closes. */
  end(reason: Error): void {
    this.turn?.abort(reason);
    this.ended.abort(reason);
  }

  private modeView(id: string): ModeView {
    return this.modeState?.available.find((m) => m.id === id) ?? { id, name: id };
  }

  private changeMode(modeId: string): void {
    if (!this.modeState || this.modeState.current === modeId) return;
    this.modeState.current = modeId;
    this.events.fire({ type: 'mode', mode: this.modeView(modeId) });
  }

  private applyConfigOptions(options: readonly SessionConfigOption[]): void {
    this.options = configOptionViews(options);
    this.events.fire({ type: 'config-options', options: this.options });
    // An agent may say its mode through a config option of category "mode" only (Claude's adapter does after set_mode).
    const mode = this.options.find((o) => o.category === 'mode' && typeof o.currentValue === 'string');
    if (mode && this.modeState?.available.some((m) => m.id === mode.currentValue)) this.changeMode(mode.currentValue as string);
  }
}
