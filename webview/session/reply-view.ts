/**
 * A streamed reply drawn as it grows (markdown-stream.ts reads it): the blocks that became
 * final are drawn once and never touched again; only what is still open is drawn anew each
 * frame, and an open code fence only gains its new lines. A frame draws at most a budget of
 * new text (the rest waits for the next), so a fast agent cannot make one frame long.
 *
 * Final blocks go in groups of GROUP_SIZE: a full group is laid out and painted only while on
 * screen (styles.css, `content-visibility`), so laying out a frame's new blocks costs about
 * them, not every block of the reply before them.
 */
import type { Block } from './markdown';
import { MarkdownStream, type StreamStep } from './markdown-stream';

const GROUP_SIZE = 24;

export class ReplyView {
  private readonly stream = new MarkdownStream();
  /** Text received and not yet drawn. */
  private waiting = '';
  /** The open part's nodes, after the final blocks. */
  private open: Node[] = [];
  /** An open fence's code element: its lines so far, then its last line. */
  private fence: { readonly code: Element; readonly last: Text } | undefined;
  /** The group final blocks go into now. */
  private group: HTMLElement | undefined;

  constructor(
    /** Where the blocks go (the entry's `.markdown`). */
    private readonly root: HTMLElement,
    private readonly block: (b: Block) => HTMLElement,
  ) {}

  add(text: string): void {
    this.waiting += text;
  }

  /** Whether text waits to be drawn. */
  get pending(): boolean {
    return this.waiting.length > 0;
  }

  /** Draws up to `budget` characters of what waits; says how many it drew. */
  draw(budget: number): number {
    if (!this.waiting) return 0;
    const take = this.waiting.length <= budget ? this.waiting : this.waiting.slice(0, budget);
    this.waiting = this.waiting.length <= budget ? '' : this.waiting.slice(budget);
    this.stream.append(take);
    this.apply(this.stream.step());
    return take.length;
  }

  private apply(step: StreamStep): void {
    for (const b of step.frozen) this.final(b);
    const open = step.open;
    if (open.t === 'blocks') {
      for (const node of this.open) this.root.removeChild(node);
      this.fence = undefined;
      this.open = open.blocks.map((b) => this.root.appendChild(this.block(b)));
      return;
    }
    if (open.start || !this.fence) {
      for (const node of this.open) this.root.removeChild(node);
      const node = this.block({ t: 'code', lang: open.lang, text: '' });
      const code = node.querySelector('code') ?? node;
      const last = document.createTextNode('');
      code.replaceChildren(last);
      this.root.appendChild(node);
      this.open = [node];
      this.fence = { code, last };
    }
    // Each frame's new lines as a text node of their own: nothing drawn before is copied again.
    if (open.add) this.fence.code.insertBefore(document.createTextNode(open.add), this.fence.last);
    this.fence.last.data = open.last;
  }

  /** A final block, last of the current group (a new group once it is full). */
  private final(b: Block): void {
    if (!this.group || this.group.childElementCount >= GROUP_SIZE) {
      this.group?.classList.add('full');
      this.group = document.createElement('div');
      this.group.className = 'blocks';
      this.root.insertBefore(this.group, this.open[0] ?? null);
    }
    this.group.append(this.block(b));
  }
}
