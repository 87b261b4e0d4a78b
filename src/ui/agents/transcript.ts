/**
 * One session's transcript as the session page shows it: ACP's stream of events (message
 * chunks, thoughts, tool calls and their updates, plans, our permissions and questions, the
 * turn's end) kept as whole entries by id, so the page is sent a whole entry each time one
 * grows. Bounded: a reply, a tool's output and the number of entries each have a cap, with a
 * word where something was left out. Pure (no `vscode`), so it is unit tested.
 */
import type { SessionEvent, ToolCallView } from '../../acp/session-events';
import type { TranscriptEntry } from '../../shared/session-protocol';

/** The most text one entry keeps; the rest is said to be left out. */
export const MAX_ENTRY_TEXT = 200_000;
/** The most entries kept; the oldest go first. */
export const MAX_ENTRIES = 2_000;
const MAX_DETAIL = 20_000;

const STOP_TEXT: Record<string, string> = {
  cancelled: 'Stopped.',
  max_tokens: 'The agent stopped: it reached its token limit.',
  max_turn_requests: 'The agent stopped: it reached its limit of requests in one turn.',
  refusal: 'The agent refused to go on.',
};

function capped(text: string, limit = MAX_ENTRY_TEXT): string {
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters not shown)` : text;
}

/** Lines added and removed, counted as multisets (what a file reference's badge needs, not a diff). */
export function changeSize(oldText: string | undefined, newText: string): { added: number; removed: number } {
  const before = new Map<string, number>();
  for (const line of (oldText ?? '').split('\n')) if (oldText !== undefined) before.set(line, (before.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of newText.split('\n')) {
    const left = before.get(line) ?? 0;
    if (left > 0) before.set(line, left - 1);
    else added++;
  }
  let removed = 0;
  for (const left of before.values()) removed += left;
  return { added, removed };
}

/** A tool call's command, or its raw input, as text. */
export function toolDetail(call: ToolCallView): string | undefined {
  const input = call.rawInput;
  if (input === undefined) return undefined;
  if (typeof input === 'object' && input !== null && typeof (input as { command?: unknown }).command === 'string') return capped((input as { command: string }).command, MAX_DETAIL);
  const text = typeof input === 'string' ? input : JSON.stringify(input, null, 2);
  return text === undefined ? undefined : capped(text, MAX_DETAIL);
}

function toolEntry(call: ToolCallView, permission?: { readonly answer: string; readonly allowed: boolean }): TranscriptEntry {
  const detail = toolDetail(call);
  const output = call.text.join('\n');
  return {
    kind: 'tool',
    id: `tool:${call.id}`,
    title: call.title || call.kind,
    toolKind: call.kind,
    status: call.status,
    ...(detail !== undefined && { detail }),
    locations: call.locations,
    diffs: call.diffs.map((d) => ({ path: d.path, ...changeSize(d.oldText, d.newText) })),
    ...(output && { output: capped(output) }),
    ...(permission && { permission }),
  };
}

export class Transcript {
  private readonly entries: TranscriptEntry[] = [];
  private readonly index = new Map<string, number>();
  private next = 0;
  /** The entry the next chunk of the same kind extends (reset by anything else). */
  private open: { readonly kind: 'agent' | 'thought' | 'user'; readonly id: string; readonly messageId?: string; text: string } | undefined;
  private dropped = 0;
  /** Tool calls and what the transcript shows beside their state: the permission's answer, or the question asked in the call (which then stands for the call). */
  private readonly calls = new Map<string, { view: ToolCallView; permission?: { answer: string; allowed: boolean }; question?: boolean }>();

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
      if (gone.id.startsWith('tool:')) this.calls.delete(gone.id.slice('tool:'.length));
      for (const [id, i] of this.index) this.index.set(id, i - 1);
    }
    return entry;
  }

  /** The person's prompt, as they typed it. */
  prompt(text: string): TranscriptEntry {
    this.open = undefined;
    return this.put({ kind: 'user', id: this.newId('user'), text: capped(text) });
  }

  /** A line of ours. */
  notice(text: string, tone: 'info' | 'warning' | 'error' = 'info'): TranscriptEntry {
    this.open = undefined;
    return this.put({ kind: 'notice', id: this.newId('notice'), text, tone });
  }

  private chunk(kind: 'agent' | 'thought' | 'user', text: string, messageId?: string): TranscriptEntry {
    const open = this.open;
    const continues = open && open.kind === kind && (messageId === undefined || open.messageId === undefined || open.messageId === messageId);
    if (!continues) this.open = { kind, id: this.newId(kind), ...(messageId !== undefined && { messageId }), text: '' };
    const current = this.open!;
    current.text += text;
    const shown = capped(current.text);
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
          id: call ? `tool:${call.view.id}` : this.newId('question'),
          message: capped(event.message, MAX_DETAIL),
          answers: (event.answers ?? []).map((a) => ({ question: capped(a.question, MAX_DETAIL), answer: capped(a.answer, MAX_DETAIL) })),
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
