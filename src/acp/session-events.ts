/**
 * What a session shows, as typed events a UI or the runner renders: `session/update`
 * notifications turned into our shapes (a tool call's updates merged into its whole
 * state), plus what happens on our side of a turn (a permission or a question asked and
 * how it was answered, the turn's end). Agent text stays data here; each surface escapes
 * it as it needs. Pure.
 *
 * Bounded: a tool call keeps its output and its input as text only as far as a session
 * shows them (a cap, with a word for the rest), its changes as their sizes (never the files'
 * texts), and its raw input only while it runs (a permission asked for it shows the input
 * whole); the most recent tool calls only are kept, and one whose transcript entry is gone
 * is forgotten (`forget`).
 */
import type { ContentBlock, SessionConfigOption, SessionUpdate, StopReason, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { changeSize } from '../elicitation/line-changes';
import { saysInput } from '../elicitation/permission-input';
import type { ToolCallStatus } from '../shared/session-protocol';

export { changeSize, saysInput };

/** The most of a tool call's output kept and shown; the rest is said to be left out. */
export const MAX_TOOL_OUTPUT = 200_000;
/** The most of a tool call's command or raw input, as text, kept and shown. */
export const MAX_TOOL_DETAIL = 20_000;
/** The most tool calls a session keeps (the oldest go first): as many as a transcript keeps entries. */
export const MAX_TOOL_CALLS_KEPT = 2_000;

export interface ToolCallView {
  readonly id: string;
  readonly title: string;
  readonly kind: string;
  /** ACP's statuses, and ours: `cancelled` once the person stopped its turn and the agent has not finished it since. */
  readonly status: ToolCallStatus;
  /** Text the tool call carries (its output, a description), one string, capped at MAX_TOOL_OUTPUT. */
  readonly output?: string;
  /** Its changes, as the number of lines each adds and removes. */
  readonly diffs: readonly { readonly path: string; readonly added: number; readonly removed: number }[];
  readonly locations: readonly { readonly path: string; readonly line?: number }[];
  /** Its command, or its raw input, as text, capped at MAX_TOOL_DETAIL. */
  readonly detail?: string;
  /** Its raw input as the agent sent it, while it runs; dropped once it has ended (`detail` stays). */
  readonly rawInput?: unknown;
}

export interface ConfigOptionView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly category?: string;
  /** A select's choices, groups flattened; a boolean's are none. */
  readonly type: 'select' | 'boolean';
  readonly currentValue: string | boolean;
  readonly options: readonly { readonly value: string; readonly name: string; readonly description?: string; readonly group?: string }[];
}

export interface ModeView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
}

export interface CommandView {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
}

/** One answered field of a question, as the person reads it. */
export interface QuestionAnswer {
  readonly question: string;
  readonly answer: string;
}

export type SessionEvent =
  | { readonly type: 'message'; readonly role: 'agent' | 'user'; readonly text: string; readonly messageId?: string }
  | { readonly type: 'thought'; readonly text: string }
  | { readonly type: 'tool-call'; readonly toolCall: ToolCallView; readonly first: boolean }
  | { readonly type: 'plan'; readonly entries: readonly { readonly content: string; readonly priority: string; readonly status: string }[] }
  | { readonly type: 'mode'; readonly mode: ModeView }
  | { readonly type: 'config-options'; readonly options: readonly ConfigOptionView[] }
  | { readonly type: 'commands'; readonly commands: readonly CommandView[] }
  | { readonly type: 'title'; readonly title: string }
  | { readonly type: 'notice'; readonly severity: string; readonly title: string; readonly description?: string }
  /**
   * A permission was answered (our side): who asked (the label), the tool call (its title and
   * id), the option chosen as the person reads it ("cancelled" for none), who answered (the
   * person, or the runner's rule without asking), and what the dialog shows of the call (the
   * command fitted as it shows it).
   */
  | { readonly type: 'permission'; readonly asker: string; readonly toolCall: string; readonly toolCallId?: string; readonly kind: string; readonly answer: string; readonly optionKind?: string; readonly by: 'person' | 'rule'; readonly shown: string }
  /**
   * A question was asked (our side): who asked (the label), its message, how it ended, the tool
   * call it belongs to, and what was answered as the person reads it (titles, option names, secrets masked).
   */
  | { readonly type: 'question'; readonly asker: string; readonly message: string; readonly action: string; readonly toolCallId?: string; readonly answers?: readonly QuestionAnswer[] }
  | { readonly type: 'turn-end'; readonly stopReason: StopReason };

/** A content block as text: text itself, anything else named in brackets. */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.title ?? block.name}: ${block.uri}]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    default:
      return `[${block.type}]`;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Kept text with the word for what was left out of it: `dropped` characters past its end. */
export function withLeftOut(kept: string, dropped: number): string {
  return dropped > 0 ? `${kept}\n… (${dropped} more characters not shown)` : kept;
}

/** `text` up to `limit` characters, saying how many more there were. */
export function capped(text: string, limit: number): string {
  return text.length > limit ? withLeftOut(text.slice(0, limit), text.length - limit) : text;
}

/** A tool call's command, or its raw input, as text (capped). */
export function inputDetail(input: unknown): string | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'object' && input !== null && typeof (input as { command?: unknown }).command === 'string') return capped((input as { command: string }).command, MAX_TOOL_DETAIL);
  const text = typeof input === 'string' ? input : JSON.stringify(input, null, 2);
  return text === undefined ? undefined : capped(text, MAX_TOOL_DETAIL);
}

function merge(previous: ToolCallView | undefined, update: ToolCallUpdate & { toolCallId: string }): ToolCallView {
  const content: readonly ToolCallContent[] | undefined = update.content ?? undefined;
  // An update's content replaces the call's whole: nothing is ever appended, so only what is shown is kept.
  const output = content
    ? capped(content.flatMap((c) => (c.type === 'content' ? [blockText(c.content)] : c.type === 'terminal' ? [`[terminal ${c.terminalId}]`] : [])).join('\n'), MAX_TOOL_OUTPUT)
    : previous?.output;
  const diffs = content ? content.flatMap((c) => (c.type === 'diff' ? [{ path: c.path, ...changeSize(typeof c.oldText === 'string' ? c.oldText : undefined, c.newText) }] : [])) : previous?.diffs ?? [];
  const locations = update.locations
    ? update.locations.map((l) => ({ path: l.path, ...(typeof l.line === 'number' && { line: l.line }) }))
    : previous?.locations ?? [];
  const newInput = saysInput(update.rawInput);
  const status = update.status ?? previous?.status ?? 'pending';
  const detail = newInput ? inputDetail(update.rawInput) : previous?.detail;
  // Once the call has ended nobody asks about its input again: its text (detail) is what stays.
  const rawInput = toolCallEnded(status) ? undefined : newInput ? update.rawInput : previous?.rawInput;
  return {
    id: update.toolCallId,
    title: str(update.title) ?? previous?.title ?? '',
    kind: str(update.kind) ?? previous?.kind ?? 'other',
    status,
    ...(output && { output }),
    diffs,
    locations,
    ...(detail !== undefined && { detail }),
    ...(rawInput !== undefined && { rawInput }),
  };
}

export function configOptionViews(options: readonly SessionConfigOption[]): ConfigOptionView[] {
  return options.map((option) => {
    const common = { id: option.id, name: option.name, ...(str(option.description) && { description: option.description! }), ...(str(option.category) && { category: option.category! }) };
    if (option.type === 'boolean') return { ...common, type: 'boolean' as const, currentValue: Boolean((option as { currentValue?: unknown }).currentValue), options: [] };
    const select = option as { currentValue: string; options: unknown[] };
    const flat = select.options.flatMap((entry) => {
      const e = entry as { value?: string; name: string; description?: string | null; group?: string; options?: { value: string; name: string; description?: string | null }[] };
      const one = (o: { value: string; name: string; description?: string | null }, group?: string) => ({ value: o.value, name: o.name, ...(str(o.description) && { description: o.description! }), ...(group && { group }) });
      return e.options ? e.options.map((o) => one(o, e.name)) : e.value !== undefined ? [one(e as { value: string; name: string })] : [];
    });
    return { ...common, type: 'select' as const, currentValue: select.currentValue, options: flat };
  });
}

/** Whether a tool call has ended (as the agent said, or by the person's Stop): no later status but the agent's own changes it. */
export function toolCallEnded(status: ToolCallView['status']): boolean {
  return status !== 'pending' && status !== 'in_progress';
}

/** Follows one session's updates: the tool calls' merged state, and the event each update makes. */
export class SessionUpdates {
  private readonly toolCalls = new Map<string, ToolCallView>();
  /** The tool calls the running turn made or updated. */
  private readonly turnCalls = new Set<string>();

  constructor(private readonly modeName: (id: string) => ModeView) {}

  toolCall(id: string): ToolCallView | undefined {
    return this.toolCalls.get(id);
  }

  /** A new turn starts: the tool calls it makes are its own. */
  startTurn(): void {
    this.turnCalls.clear();
  }

  /**
   * The person stopped the turn: its tool calls not finished are cancelled from now on, as ACP
   * asks of a client when it sends `session/cancel` (the agent need not say so). An update the
   * agent sends after still applies. Returns the calls changed.
   */
  cancelTurn(): ToolCallView[] {
    const changed: ToolCallView[] = [];
    for (const id of this.turnCalls) {
      const call = this.toolCalls.get(id);
      if (!call || toolCallEnded(call.status)) continue;
      const { rawInput: _ended, ...rest } = call;
      const cancelled = { ...rest, status: 'cancelled' as const };
      this.toolCalls.set(id, cancelled);
      changed.push(cancelled);
    }
    this.turnCalls.clear();
    return changed;
  }

  /** The call's entry is no longer shown (a transcript let it go): nothing of it is kept. */
  forget(id: string): void {
    this.toolCalls.delete(id);
    this.turnCalls.delete(id);
  }

  /** Keeps `view` as the most recent call; past MAX_TOOL_CALLS_KEPT the oldest goes. */
  private keep(view: ToolCallView): void {
    this.toolCalls.delete(view.id);
    this.toolCalls.set(view.id, view);
    this.turnCalls.add(view.id);
    if (this.toolCalls.size > MAX_TOOL_CALLS_KEPT) this.forget(this.toolCalls.keys().next().value!);
  }

  /** The event for one update; undefined for what nobody renders (usage, compaction). */
  read(update: SessionUpdate): SessionEvent | undefined {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
      case 'user_message_chunk':
        return { type: 'message', role: update.sessionUpdate === 'agent_message_chunk' ? 'agent' : 'user', text: blockText(update.content), ...(str(update.messageId) && { messageId: update.messageId! }) };
      case 'agent_thought_chunk':
        return { type: 'thought', text: blockText(update.content) };
      case 'tool_call':
      case 'tool_call_update': {
        const first = !this.toolCalls.has(update.toolCallId);
        const view = merge(this.toolCalls.get(update.toolCallId), update);
        this.keep(view);
        return { type: 'tool-call', toolCall: view, first };
      }
      case 'plan':
        return { type: 'plan', entries: update.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status })) };
      case 'current_mode_update':
        return { type: 'mode', mode: this.modeName(update.currentModeId) };
      case 'config_option_update':
        return { type: 'config-options', options: configOptionViews(update.configOptions) };
      case 'available_commands_update':
        return {
          type: 'commands',
          commands: update.availableCommands.map((c) => ({ name: c.name, description: c.description, ...(c.input && str(c.input.hint) && { hint: c.input.hint }) })),
        };
      case 'session_info_update':
        return str(update.title) ? { type: 'title', title: update.title! } : undefined;
      case 'notice':
        return { type: 'notice', severity: update.severity, title: update.title, ...(str(update.description) && { description: update.description! }) };
      default:
        return undefined;
    }
  }
}
