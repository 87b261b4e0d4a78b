/**
 * One session's transcript as the session page shows it: ACP's stream of events (message
 * chunks, thoughts, tool calls and their updates, plans, our permissions and questions, the
 * turn's end) kept as whole entries by id, so the page is sent a whole entry each time one
 * grows. A permission's answer is said on its tool call's line, and a question the agent asked
 * in a tool call stands in the call's place as the question and its answer. Bounded: a reply, a tool's output and the number of entries each have a cap, with a
 * word where something was left out; a reply past its cap keeps no more of what streams in,
 * only its count. An entry let go of takes its tool call with it (the session keeps nothing of
 * a call nobody sees). Pure (no `vscode`), so it is unit tested.
 */
import { capped, MAX_TOOL_DETAIL, type SessionEvent, type ToolCallView, withLeftOut } from '../../acp/session-events';
import type { TranscriptEntry } from '../../shared/session-protocol';

/** The most text one entry keeps; the rest is said to be left out. */
export const MAX_ENTRY_TEXT = 200_000;
/** The most entries kept; the oldest go first. */
export const MAX_ENTRIES = 2_000;
const TOOL_PREFIX = 'tool:';

const STOP_TEXT: Record<string, string> = {
  cancelled: 'Stopped.',
  max_tokens: 'The agent stopped: it reached its token limit.',
  max_turn_requests: 'The agent stopped: it reached its limit of requests in one turn.',
  refusal: 'The agent refused to go on.',
};

function toolEntry(call: ToolCallView, permission?: { readonly answer: string; readonly allowed: boolean }): TranscriptEntry {
  return {
    kind: 'tool',
    id: `${TOOL_PREFIX}${call.id}`,
    title: call.title || call.kind,
    toolKind: call.kind,
    status: call.status,
    ...(call.detail !== undefined && { detail: call.detail }),
    locations: call.locations,
    diffs: call.diffs,
    ...(call.output && { output: call.output }),
    ...(permission && { permission }),
  };
}

/** Where the session's tool calls are kept: told when a call's entry is let go of. */
export interface KeptToolCalls {
  forget(toolCallId: string): void;
}

export class Transcript {
  private readonly entries: TranscriptEntry[] = [];
  private readonly index = new Map<string, number>();
  private next = 0;
  /** The entry the next chunk of the same kind extends (reset by anything else). */
  private open: { readonly kind: 'agent' | 'thought' | 'user'; readonly id: string; readonly messageId?: string; text: string; notShown: number } | undefined;
  private dropped = 0;
  /** Tool calls and what the transcript shows beside their state: the permission's answer, or the question asked in the call (which then stands for the call). */
  private readonly calls = new Map<string, { view: ToolCallView; permission?: { answer: string; allowed: boolean }; question?: boolean }>();

  constructor(private readonly toolCalls?: KeptToolCalls) {}

  all(): readonly TranscriptEntry[] {
    return this.dropped > 0 ? [{ kind: 'notice', id: 'dropped', tone: 'info', text: `${this.dropped} earlier entries are not kept.` }, ...this.entries] : [...this.entries];
  }

  private newId(prefix: string): string {
    return `${prefix}:${this.next++}`;
  }

  private put(entry: TranscriptEntry): TranscriptEntry {
    const at = this.index.get(entry.id);
    if (at !== undefined) {
      this.entries[at] = entry;
      return entry;
    }
    this.entries.push(entry);
    this.index.set(entry.id, this.entries.length - 1);
    if (this.entries.length > MAX_ENTRIES) {
      const gone = this.entries.shift()!;
      this.dropped++;
      this.index.delete(gone.id);
      if (gone.id.startsWith(TOOL_PREFIX)) {
        // A tool call's line, or the question that stands in its place: the call goes with it.
        const toolCallId = gone.id.slice(TOOL_PREFIX.length);
        this.calls.delete(toolCallId);
        this.toolCalls?.forget(toolCallId);
      }
      for (const [id, i] of this.index) this.index.set(id, i - 1);
    }
    return entry;
  }

  /** The person's prompt, as they typed it. */
  prompt(text: string): TranscriptEntry {
    this.open = undefined;
    return this.put({ kind: 'user', id: this.newId('user'), text: capped(text, MAX_ENTRY_TEXT) });
  }

  /** A line of ours. */
  notice(text: string, tone: 'info' | 'warning' | 'error' = 'info'): TranscriptEntry {
    this.open = undefined;
    return this.put({ kind: 'notice', id: this.newId('notice'), text, tone });
  }

  private chunk(kind: 'agent' | 'thought' | 'user', text: string, messageId?: string): TranscriptEntry {
    const open = this.open;
    const continues = open && open.kind === kind && (messageId === undefined || open.messageId === undefined || open.messageId === messageId);
    if (!continues) this.open = { kind, id: this.newId(kind), ...(messageId !== undefined && { messageId }), text: '', notShown: 0 };
    const current = this.open!;
    // Past the cap a chunk is only counted: a runaway reply costs its count, not its text.
    const room = MAX_ENTRY_TEXT - current.text.length;
    if (room > 0) current.text += text.length > room ? text.slice(0, room) : text;
    current.notShown += Math.max(0, text.length - Math.max(0, room));
    const shown = withLeftOut(current.text, current.notShown);
    return this.put(kind === 'agent' ? { kind, id: current.id, markdown: shown } : { kind, id: current.id, text: shown });
  }

  /** The entry an event makes or changes; undefined for events the transcript does not show (the header shows them). */
  apply(event: SessionEvent): TranscriptEntry | undefined {
    switch (event.type) {
      case 'message':
        return this.chunk(event.role, event.text, event.messageId);
      case 'thought':
        return this.chunk('thought', event.text);
      case 'tool-call': {
        this.open = undefined;
        const known = this.calls.get(event.toolCall.id);
        this.calls.set(event.toolCall.id, { ...known, view: event.toolCall });
        // A question the agent asked in this call reads as the question and its answer, not as the call's input.
        if (known?.question) return undefined;
        return this.put(toolEntry(event.toolCall, known?.permission));
      }
      case 'plan':
        this.open = undefined;
        return this.put({
          kind: 'plan',
          id: 'plan',
          steps: event.entries.map((e) => ({ content: e.content, status: e.status === 'completed' || e.status === 'in_progress' ? e.status : 'pending' })),
        });
      case 'mode':
        return this.notice(`Mode: ${event.mode.name}`);
      case 'notice':
        return this.notice(event.description ? `${event.title}: ${event.description}` : event.title, event.severity === 'error' ? 'error' : event.severity === 'warning' ? 'warning' : 'info');
      case 'permission': {
        const call = event.toolCallId !== undefined ? this.calls.get(event.toolCallId) : undefined;
        if (!call || call.question) return this.notice(`Permission for ${event.toolCall}: ${event.answer}`);
        // Said on the call's own line: its title and command are there already.
        call.permission = { answer: event.answer, allowed: event.optionKind?.startsWith('allow') === true };
        return this.put(toolEntry(call.view, call.permission));
      }
      case 'question': {
        this.open = undefined;
        const call = event.toolCallId !== undefined ? this.calls.get(event.toolCallId) : undefined;
        // Unanswered (dismissed, or its turn stopped): the call's own line says how it ended.
        if (call && event.action === 'cancel') return undefined;
        if (call) call.question = true;
        return this.put({
          kind: 'question',
          // In the place of the call it was asked in, where there is one.
          id: call ? `${TOOL_PREFIX}${call.view.id}` : this.newId('question'),
          message: capped(event.message, MAX_TOOL_DETAIL),
          answers: (event.answers ?? []).map((a) => ({ question: capped(a.question, MAX_TOOL_DETAIL), answer: capped(a.answer, MAX_TOOL_DETAIL) })),
          action: event.action,
        });
      }
      case 'turn-end': {
        const text = STOP_TEXT[event.stopReason];
        this.open = undefined;
        return text ? this.notice(text, event.stopReason === 'cancelled' ? 'info' : 'warning') : undefined;
      }
      default:
        return undefined;
    }
  }
}
