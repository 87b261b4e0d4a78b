/**
 * The session page's transcript, drawn at the page's own pace and kept to a bounded size
 * however long the session:
 *
 * - What the host sends is queued and drawn once per animation frame, within a time budget (a
 *   frame left over is drawn in the next); a page that gets no frames (hidden) is still drawn
 *   now and then, so nothing piles up.
 * - A streamed entry grows by what each chunk added: a reply's Markdown through its ReplyView
 *   (only what is still open is read and drawn again), a thought or a replayed prompt as text.
 * - Only the newest entries are drawn (ENTRIES_SHOWN, fewer when they are long: ELEMENTS_SHOWN,
 *   and those the person asked for): older ones are folded into a row that says how many there
 *   are and shows them again on demand (the host keeps them). Folding happens while the person follows the newest, never under
 *   their eyes while they read back (past a hard bound, it happens anyway). The view follows
 *   the newest until the person scrolls up, and again once they scroll back to the end.
 * - An entry past its cap says how much is not shown, with Open Whole Reply.
 *
 * How an entry looks is render.ts's; main.ts keeps what the person opened when one is redrawn.
 */
import { ENTRIES_SHOWN, type SessionHostMessage, type SessionPageMessage, type StreamedEntry, type TranscriptEntry } from '../../src/shared/session-protocol';
import type { Block } from './markdown';
import { ReplyView } from './reply-view';

/** A frame's time for taking in what came (the rest of the 16.7 ms is the browser's). */
const FRAME_BUDGET_MS = 4;
/**
 * A frame's time for drawing new reply text and laying it out: the text a frame draws is
 * adjusted to it (laying out new text costs about its length), so a fast agent makes the
 * reply appear a little later, never a frame long.
 */
const DRAW_BUDGET_MS = 6;
const MIN_CHARS = 1_000;
const MAX_CHARS = 64_000;
/** How often a page without frames (hidden) still takes what came. */
const HIDDEN_MS = 250;
/** Entries shown past ENTRIES_SHOWN before the oldest are folded (not one by one). */
const FOLD_SLACK = 20;
/** Past this many, the oldest are folded even while the person reads back. */
const HARD_BOUND = 4 * ENTRIES_SHOWN;
/**
 * Elements the entries shown may hold before the oldest fold while the person follows the
 * newest, however few they are (a long reply is thousands): a session of long replies stays
 * as small as one of short ones. The newest entry always stays; what Show earlier brought
 * stays while the person reads back.
 */
export const ELEMENTS_SHOWN = 20_000;
/** How many earlier entries Show earlier brings at a time. */
const SHOW_EARLIER = 50;

export interface TranscriptViewDeps {
  /** An entry's element (render.ts). */
  element(entry: TranscriptEntry): HTMLElement;
  /** Puts `next` in the place of `old`, keeping open what the person opened in it. */
  replace(old: HTMLElement, next: HTMLElement): void;
  /** A Markdown block's element (render.ts). */
  block(b: Block): HTMLElement;
  post(message: SessionPageMessage): void;
}

/** A streamed entry being drawn: a reply through its view, or text kept whole (a thought, a prompt; drawn again when it grew). */
interface Streaming {
  entry: StreamedEntry;
  readonly reply?: ReplyView;
  /** A thought or prompt grew since it was drawn. */
  grown: boolean;
}

function grown(entry: StreamedEntry, text: string, notShown: number | undefined): StreamedEntry {
  const more = notShown !== undefined ? { notShown } : entry.notShown !== undefined ? { notShown: entry.notShown } : {};
  return entry.kind === 'agent' ? { ...entry, markdown: entry.markdown + text, ...more } : { ...entry, text: entry.text + text, ...more };
}

export class TranscriptView {
  private readonly shown = new Map<string, HTMLElement>();
  private readonly streams = new Map<string, Streaming>();
  private queue: SessionHostMessage[] = [];
  private next = 0;
  /** How many entries the host keeps (those not shown are folded). */
  private kept = 0;
  private readonly fold: HTMLElement;
  private readonly foldText: HTMLElement;
  private ticket = 0;
  private scheduled = false;
  /** Show earlier was asked and not yet answered. */
  private asked = false;
  /** How much new reply text the next frame draws (see DRAW_BUDGET_MS). */
  private chars = 4_000;
  private lastFrame = 0;
  /** The view follows the newest entry (the person has not scrolled up from it). */
  private following = true;
  /** Where our own last scroll took the page (its scroll event is not the person's). */
  private ourScroll = -1;
  /** Frames still to follow the end after drawing: entries first drawn off screen take their size a frame later. */
  private settle = 0;
  /** An entry was added since the elements were last counted (a streamed one grows by at most its cap). */
  private added = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly deps: TranscriptViewDeps,
  ) {
    this.fold = document.createElement('div');
    this.fold.className = 'folded';
    this.fold.hidden = true;
    this.foldText = document.createElement('span');
    const show = document.createElement('button');
    show.type = 'button';
    show.className = 'secondary';
    show.textContent = 'Show earlier';
    show.addEventListener('click', () => this.showEarlier());
    this.fold.append(this.foldText, show);
    root.before(this.fold);
    window.addEventListener('scroll', () => this.scrolled(), { passive: true });
    window.addEventListener('wheel', (event) => {
      if (event.deltaY < 0) this.following = false;
    }, { passive: true });
  }

  /** The person scrolled: up from the end stops following; back at the end follows again. */
  private scrolled(): void {
    if (Math.abs(window.scrollY - this.ourScroll) < 1) return;
    this.following = this.atBottom();
  }

  /** A message of the host's about the transcript: drawn in the next frame. */
  receive(message: SessionHostMessage): void {
    if (message.type === 'batch') {
      for (const m of message.messages) this.receive(m);
      return;
    }
    if (message.type === 'header') return;
    if (message.type === 'reset') {
      // Everything before it is replaced.
      this.queue = [];
      this.next = 0;
    }
    this.queue.push(message);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const ticket = ++this.ticket;
    const run = (): void => {
      if (ticket !== this.ticket) return;
      this.ticket++;
      this.scheduled = false;
      this.frame();
    };
    requestAnimationFrame(run);
    // A hidden page gets no frames: what comes is still taken in now and then.
    setTimeout(run, HIDDEN_MS);
  }

  private frame(): void {
    const started = performance.now();
    // The last frame came late: what it drew was too much for this machine.
    if (this.lastFrame > 0 && started - this.lastFrame > 25) this.chars = Math.max(MIN_CHARS, this.chars / 2);
    this.lastFrame = started;
    const follow = this.following;
    const taken = this.next;
    while (this.next < this.queue.length && performance.now() - started < FRAME_BUDGET_MS) this.apply(this.queue[this.next++]);
    const changed = this.next > taken;
    if (this.next >= this.queue.length) {
      this.queue = [];
      this.next = 0;
    }
    const drawing = performance.now();
    let chars = this.chars;
    let drew = 0;
    for (const [id, streaming] of this.streams) {
      if (streaming.reply?.pending && chars > 0) {
        const n = streaming.reply.draw(chars);
        chars -= n;
        drew += n;
      }
      if (streaming.grown) this.drawStreamed(id, streaming);
    }
    this.foldOldest(follow);
    this.showFold();
    // Following the newest lays the page out here, so its cost is measured with the drawing's.
    if (follow) this.toEnd();
    const pending = [...this.streams.values()].some((s) => s.reply?.pending);
    if (drew > 0) this.adjust(drew, performance.now() - drawing, pending);
    if (changed || drew > 0) this.settle = 2;
    if (this.queue.length > 0 || pending) this.schedule();
    else if (follow && this.settle-- > 0) this.schedule();
    else this.lastFrame = 0;
  }

  private toEnd(): void {
    window.scrollTo(0, document.body.scrollHeight);
    this.ourScroll = window.scrollY;
  }

  /** The text the next frame draws, from what this one cost: less when it was over budget, more when text waits and it was well under. */
  private adjust(drew: number, ms: number, waiting: boolean): void {
    if (ms > DRAW_BUDGET_MS) this.chars = Math.max(MIN_CHARS, Math.floor((drew * DRAW_BUDGET_MS) / ms));
    else if (waiting && ms < DRAW_BUDGET_MS / 2) this.chars = Math.min(MAX_CHARS, Math.floor(this.chars * 1.25));
  }

  /** Whether the person is at the newest: then the view follows it, and old entries may fold. */
  private atBottom(): boolean {
    return window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  }

  private apply(message: SessionHostMessage): void {
    switch (message.type) {
      case 'reset':
        this.following = true;
        this.shown.clear();
        this.streams.clear();
        this.root.replaceChildren();
        this.asked = false;
        this.kept = message.kept ?? message.entries.length;
        for (const entry of message.entries) this.draw(entry, true);
        break;
      case 'entry':
        // An entry folded away stays folded: Show earlier brings its state as it is then.
        if (this.shown.has(message.entry.id) || message.last) this.draw(message.entry, message.last === true);
        break;
      case 'append': {
        const streaming = this.streams.get(message.id);
        if (!streaming) break;
        if (streaming.reply) {
          streaming.reply.add(message.text);
          if (message.notShown !== undefined && message.notShown !== streaming.entry.notShown) {
            streaming.entry = { ...streaming.entry, notShown: message.notShown };
            this.leftOut(this.shown.get(message.id)!, streaming.entry);
          }
        } else {
          streaming.entry = grown(streaming.entry, message.text, message.notShown);
          streaming.grown = true;
        }
        break;
      }
      case 'kept':
        this.kept = message.kept;
        break;
      case 'earlier':
        this.asked = false;
        this.insertEarlier(message.before, message.entries);
        break;
      default:
        break;
    }
  }

  /** Draws an entry: in its place when shown, else last (`last`) or first (an earlier one). */
  private draw(entry: TranscriptEntry, last: boolean): void {
    const old = this.shown.get(entry.id);
    const node = this.element(entry);
    node.dataset.entryId = entry.id;
    if (old) this.deps.replace(old, node);
    else if (last) this.root.append(node);
    else this.root.prepend(node);
    if (!old && last) this.added = true;
    this.shown.set(entry.id, node);
  }

  /** An entry's element; a streamed one is followed from now on (a reply through its ReplyView). */
  private element(entry: TranscriptEntry): HTMLElement {
    this.streams.delete(entry.id);
    if (entry.kind !== 'agent' && entry.kind !== 'thought' && entry.kind !== 'user') return this.deps.element(entry);
    if (entry.kind === 'agent') {
      const node = this.deps.element({ ...entry, markdown: '' });
      const markdown = node.querySelector<HTMLElement>('.markdown');
      if (markdown) {
        const reply = new ReplyView(markdown, this.deps.block);
        reply.add(entry.markdown);
        // Drawn now (the frame's budget applies to what streams in after).
        reply.draw(Number.MAX_SAFE_INTEGER);
        this.streams.set(entry.id, { entry, reply, grown: false });
        this.leftOut(node, entry);
        return node;
      }
    }
    this.streams.set(entry.id, { entry, grown: false });
    const node = this.deps.element(entry);
    this.leftOut(node, entry);
    return node;
  }

  /** A thought or prompt that grew: drawn again whole (they are short; the cap bounds them). */
  private drawStreamed(id: string, streaming: Streaming): void {
    streaming.grown = false;
    const old = this.shown.get(id);
    if (!old) return;
    const node = this.deps.element(streaming.entry);
    node.dataset.entryId = id;
    this.leftOut(node, streaming.entry);
    this.deps.replace(old, node);
    this.shown.set(id, node);
  }

  /** Past its cap, an entry says how much is not shown and offers the whole. */
  private leftOut(node: HTMLElement, entry: StreamedEntry): void {
    const notShown = entry.notShown ?? 0;
    let row = node.querySelector<HTMLElement>(':scope > .left-out');
    if (notShown === 0) {
      row?.remove();
      return;
    }
    if (!row) {
      row = document.createElement('div');
      row.className = 'left-out';
      const text = document.createElement('span');
      const open = document.createElement('button');
      open.type = 'button';
      open.className = 'secondary';
      open.textContent = 'Open Whole Reply';
      open.addEventListener('click', () => this.deps.post({ type: 'openWhole', id: entry.id }));
      row.append(text, open);
      node.append(row);
    }
    row.firstElementChild!.textContent = `… ${notShown.toLocaleString('en-US')} more characters not shown here. `;
  }

  /**
   * Folds the oldest entries past the bounds: in entries and in elements while the person
   * follows the newest, in entries past the hard bound.
   */
  private foldOldest(follow: boolean): void {
    const tooMany = follow ? this.shown.size > ENTRIES_SHOWN + FOLD_SLACK : this.shown.size > HARD_BOUND;
    // Counted only once a new entry came: counting walks the elements.
    let elements = follow && this.added ? this.root.getElementsByTagName('*').length : 0;
    if (follow) this.added = false;
    if (!tooMany && elements <= ELEMENTS_SHOWN) return;
    while (this.shown.size > 1 && (this.shown.size > ENTRIES_SHOWN || elements > ELEMENTS_SHOWN)) {
      const oldest = this.root.firstElementChild as HTMLElement | null;
      if (!oldest) break;
      const id = oldest.dataset.entryId ?? '';
      elements -= oldest.getElementsByTagName('*').length + 1;
      oldest.remove();
      this.shown.delete(id);
      this.streams.delete(id);
    }
  }

  private showFold(): void {
    const folded = Math.max(0, this.kept - this.shown.size);
    this.fold.hidden = folded === 0;
    this.foldText.textContent = `${folded.toLocaleString('en-US')} earlier message${folded === 1 ? '' : 's'} folded. `;
  }

  private showEarlier(): void {
    const first = (this.root.firstElementChild as HTMLElement | null)?.dataset.entryId;
    if (!first || this.asked) return;
    this.asked = true;
    this.deps.post({ type: 'earlier', before: first, count: SHOW_EARLIER });
  }

  /** The answer to Show earlier: drawn above the first entry shown, if it still is the first. */
  private insertEarlier(before: string, entries: readonly TranscriptEntry[]): void {
    const first = (this.root.firstElementChild as HTMLElement | null)?.dataset.entryId;
    if (first !== before) return;
    for (const entry of [...entries].reverse()) if (!this.shown.has(entry.id)) this.draw(entry, false);
  }
}
