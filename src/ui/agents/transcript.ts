/**
 * One session's transcript as the session page shows it: ACP's stream of events (message
 * chunks, thoughts, tool calls and their updates, plans, our permissions and questions, the
 * turn's end) kept as entries by id. An entry is sent whole when it is made or changes, except
 * streamed text: a chunk of a reply, a thought or a replayed prompt is sent as what it added
 * (`append`), so a chunk costs what it adds however long the reply is. A permission's answer
 * is said on its tool call's line, and a question the agent asked in a tool call stands in the
 * call's place as the question and its answer.
 *
 * Bounded: a reply, a tool's output and the number of entries each have a cap, with a word
 * where something was left out. A streamed entry past its cap keeps no more of what streams in
 * than its count; the whole of it goes to `WholeTexts` (a file the person opens in an editor).
 * The entries are a map by id and a queue of ids, so letting the oldest go is constant work
 * (nothing is renumbered). An entry let go of takes its tool call with it (the session keeps
 * nothing of a call nobody sees). Pure (no `vscode`), so it is unit tested.
 */
import { capped, MAX_TOOL_DETAIL, type SessionEvent, type ToolCallView } from '../../acp/session-events';
import type { StreamedEntry, TranscriptEntry } from '../../shared/session-protocol';

/** The most text one entry keeps; the rest is said to be left out. */
export const MAX_ENTRY_TEXT = 200_000;
/** The most entries kept; the oldest go first. */
export const MAX_ENTRIES = 2_000;
/**
 * The most text one message to the page carries (a reload's newest entries, Show earlier's):
 * 100 entries of up to 200,000 characters would be 20 MB in one message and one long frame.
 * The newest entry is sent whatever its size; the rest wait for Show earlier.
 */
export const MAX_SENT_TEXT = 2_000_000;
const TOOL_PREFIX = 'tool:';
/** The notice standing for the entries let go of, first in the transcript. */
export const DROPPED_ID = 'dropped';

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

/** Where the whole of a streamed entry goes once it passes its cap (src/ui/agents/whole-texts.ts: a file). */
export interface WholeTexts {
  /** Entry `id` passed its cap: its text so far. */
  begin(id: string, soFar: string): void;
  /** And each chunk after that, whole. */
  more(id: string, text: string): void;
  /** The entry was let go of. */
  drop(id: string): void;
}

/** Text added to a streamed entry already sent: the page appends it (`notShown` once the cap is reached). */
export interface Appended {
  readonly kind: 'append';
  readonly id: string;
  readonly text: string;
  readonly notShown?: number;
}

/** What an event does to the transcript: an entry made or changed (sent whole), or text added to a streamed one. */
export type TranscriptChange = TranscriptEntry | Appended;

/** A reply, a thought or a replayed prompt as it streams: its text up to the cap, and how much came past it. */
class StreamedText {
  /** Grown by concatenation (V8 keeps it as a rope): a chunk costs its own length. */
  private text = '';
  private notShown = 0;

  constructor(
    readonly kind: StreamedEntry['kind'],
    readonly id: string,
    readonly messageId: string | undefined,
  ) {}

  /** Adds a chunk; what of it is shown (past the cap, nothing: the whole goes to `whole`). */
  add(chunk: string, whole: WholeTexts | undefined): string {
    const room = MAX_ENTRY_TEXT - this.text.length;
    if (chunk.length <= room) {
      this.text += chunk;
      return chunk;
    }
    if (this.notShown === 0) whole?.begin(this.id, this.text);
    whole?.more(this.id, chunk);
    const shown = room > 0 ? chunk.slice(0, room) : '';
    this.text += shown;
    this.notShown += chunk.length - shown.length;
    return shown;
  }

  /** Whether its whole went to the whole texts (it passed its cap). */
  get passedCap(): boolean {
    return this.notShown > 0;
  }

  appended(shown: string): Appended {
    return { kind: 'append', id: this.id, text: shown, ...(this.notShown > 0 && { notShown: this.notShown }) };
  }

  entry(): StreamedEntry {
    const notShown = this.notShown > 0 ? { notShown: this.notShown } : {};
    return this.kind === 'agent' ? { kind: 'agent', id: this.id, markdown: this.text, ...notShown } : { kind: this.kind, id: this.id, text: this.text, ...notShown };
  }
}

type Held = TranscriptEntry | StreamedText;

/** The characters of an entry's text (what makes a message to the page large). */
function textOf(entry: TranscriptEntry): number {
  switch (entry.kind) {
    case 'user':
    case 'thought':
    case 'notice':
      return entry.text.length;
    case 'agent':
      return entry.markdown.length;
    case 'tool':
      return entry.title.length + (entry.detail?.length ?? 0) + (entry.output?.length ?? 0);
    case 'question':
      return entry.message.length + entry.answers.reduce((sum, a) => sum + a.question.length + a.answer.length, 0);
    case 'plan':
      return entry.steps.reduce((sum, step) => sum + step.content.length, 0);
  }
}

function shown(held: Held): TranscriptEntry {
  return held instanceof StreamedText ? held.entry() : held;
}

export class Transcript {
  private readonly entries = new Map<string, Held>();
  /** The entries' ids in order, from `head` (the oldest kept) on. */
  private order: string[] = [];
  private head = 0;
  private next = 0;
  /** The entry the next chunk of the same kind extends (reset by anything else). */
  private open: StreamedText | undefined;
  private dropped = 0;
  /** Tool calls and what the transcript shows beside their state: the permission's answer, or the question asked in the call (which then stands for the call). */
  private readonly calls = new Map<string, { view: ToolCallView; permission?: { answer: string; allowed: boolean }; question?: boolean }>();

  constructor(
    private readonly toolCalls?: KeptToolCalls,
    private readonly whole?: WholeTexts,
  ) {}

  /** Every entry kept, oldest first, after a word for those let go of. */
  all(): readonly TranscriptEntry[] {
    return this.newest(Number.MAX_SAFE_INTEGER).entries;
  }

  /** How many entries there are to show (the word for those let go of included). */
  get kept(): number {
    return this.order.length - this.head + (this.dropped > 0 ? 1 : 0);
  }

  /** Whether `id` is the newest entry (the page shows it last). */
  isNewest(id: string): boolean {
    return this.order.length > this.head && this.order[this.order.length - 1] === id;
  }

  private droppedNotice(): TranscriptEntry {
    return { kind: 'notice', id: DROPPED_ID, tone: 'info', text: `${this.dropped} earlier entries are not kept.` };
  }

  /** The newest `count` entries (fewer where their text passes `maxText`), oldest first, and how many come before them. */
  newest(count: number, maxText = Infinity): { readonly entries: readonly TranscriptEntry[]; readonly more: number } {
    return this.upTo(this.order.length, this.within(this.order.length, count, maxText));
  }

  /** Up to `count` entries before the entry `id` (fewer where their text passes `maxText`), oldest first, and how many come before them (none when `id` is not kept). */
  before(id: string, count: number, maxText = Infinity): { readonly entries: readonly TranscriptEntry[]; readonly more: number } {
    const at = this.entries.has(id) ? this.order.lastIndexOf(id) : -1;
    return at < this.head ? { entries: [], more: 0 } : this.upTo(at, this.within(at, count, maxText));
  }

  /** How many of the `count` entries before position `end` fit in `maxText` characters (at least one). */
  private within(end: number, count: number, maxText: number): number {
    if (maxText === Infinity) return count;
    let taken = 0;
    let text = 0;
    for (let at = end - 1; at >= this.head && taken < count; at--) {
      text += textOf(shown(this.entries.get(this.order[at])!));
      if (taken > 0 && text > maxText) break;
      taken++;
    }
    // Past the first kept entry: the count asked for, so the word for those let go of comes too.
    return end - taken === this.head ? count : taken;
  }

  /** Up to `count` entries before position `end` of the queue, the word for those let go of first. */
  private upTo(end: number, count: number): { readonly entries: readonly TranscriptEntry[]; readonly more: number } {
    const from = Math.max(this.head, end - count);
    const entries = this.order.slice(from, end).map((id) => shown(this.entries.get(id)!));
    const left = end - from < count && this.dropped > 0;
    return { entries: left ? [this.droppedNotice(), ...entries] : entries, more: from - this.head + (this.dropped > 0 && !left ? 1 : 0) };
  }

  private newId(prefix: string): string {
    return `${prefix}:${this.next++}`;
  }

  private put<H extends Held>(entry: H): H {
    const known = this.entries.has(entry.id);
    this.entries.set(entry.id, entry);
    if (known) return entry;
    this.order.push(entry.id);
    if (this.order.length - this.head > MAX_ENTRIES) this.letGoOfOldest();
    return entry;
  }

  private letGoOfOldest(): void {
    const id = this.order[this.head++];
    // The queue is compacted now and then: constant work per entry, counted over many.
    if (this.head >= 1024 && this.head * 2 >= this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    const gone = this.entries.get(id);
    this.entries.delete(id);
    this.dropped++;
    if (gone instanceof StreamedText) {
      if (gone.passedCap) this.whole?.drop(id);
      if (this.open === gone) this.open = undefined;
    } else if (id.startsWith(TOOL_PREFIX)) {
      // A tool call's line, or the question that stands in its place: the call goes with it.
      const toolCallId = id.slice(TOOL_PREFIX.length);
      this.calls.delete(toolCallId);
      this.toolCalls?.forget(toolCallId);
    }
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

  /** A chunk: a new entry (sent whole), or what it adds to the open one. */
  private chunk(kind: StreamedEntry['kind'], text: string, messageId?: string): TranscriptChange {
    const open = this.open;
    if (open && open.kind === kind && (messageId === undefined || open.messageId === undefined || open.messageId === messageId)) return open.appended(open.add(text, this.whole));
    const started = this.put(new StreamedText(kind, this.newId(kind), messageId));
    this.open = started;
    started.add(text, this.whole);
    return started.entry();
  }

  /** What an event changes; undefined for events the transcript does not show (the header shows them). */
  apply(event: SessionEvent): TranscriptChange | undefined {
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
