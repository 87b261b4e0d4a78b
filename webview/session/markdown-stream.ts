/**
 * A streamed reply's Markdown read as it grows, at a cost that does not grow with the reply:
 * only the text after the last block that can no longer change is read again. A block is
 * final once every line its reading looked at is a whole line (markdown.ts's `readBlocks`
 * says which): text appended later only extends the last line and adds lines after it, so
 * such a block reads the same in the whole text. Each step hands the page the blocks that
 * became final (drawn once, never again) and what is still open (drawn anew).
 *
 * An unclosed code fence (a long file the agent is writing out) is the one open block that
 * can grow without end: its whole lines are final as soon as they are not its closing fence,
 * so each step hands only the lines it gained and its last, partial line.
 *
 * What the steps draw is always what parseMarkdown gives for the whole text so far (the unit
 * test checks it at every split point). Pure, so it is tested under plain Node.
 */
import { type Block, fenceOpening, readBlocks } from './markdown';

/** What is still open after the final blocks. */
export type OpenPart =
  | { readonly t: 'blocks'; readonly blocks: readonly Block[] }
  /**
   * An unclosed code fence at the end of the text. Its code is everything `add` has brought
   * since the step that said `start`, then `last` (the part after its last whole line, which
   * replaces the previous step's `last`).
   */
  | { readonly t: 'fence'; readonly lang: string; readonly start: boolean; readonly add: string; readonly last: string };

export interface StreamStep {
  /** Blocks that became final in this step, in order, after those of earlier steps. */
  readonly frozen: readonly Block[];
  readonly open: OpenPart;
}

interface OpenFence {
  readonly lang: string;
  readonly close: RegExp;
  /** The text after the last whole line handed on (kept apart, so a step reads only what is new). */
  rest: string;
  /** Whole lines handed on so far (the first needs no line break before it). */
  lines: number;
}

export class MarkdownStream {
  /** The text after the last final block, line breaks made `\n`. */
  private tail = '';
  /** The text so far ended in `\r`: a `\n` right after it belongs to it. */
  private afterCr = false;
  private fence: OpenFence | undefined;
  /** The fence has been handed on as such (its `start` said). */
  private fenceShown = false;

  /** More of the reply. Nothing is read until `step`. */
  append(text: string): void {
    let more = this.afterCr && text.startsWith('\n') ? text.slice(1) : text;
    if (text.length > 0) this.afterCr = text.endsWith('\r');
    more = more.replace(/\r\n?/g, '\n');
    this.tail += more;
    if (this.fence) this.fence.rest += more;
  }

  /** What changed since the last step. */
  step(): StreamStep {
    if (this.fence) {
      const open = this.fenceStep(this.fence);
      if (open) return { frozen: [], open };
    }
    return this.readTail();
  }

  /** The open fence's new whole lines and last line; undefined once a whole line closes it (the tail is read again). */
  private fenceStep(fence: OpenFence): OpenPart | undefined {
    const lastBreak = fence.rest.lastIndexOf('\n');
    let add = '';
    let from = 0;
    while (from <= lastBreak) {
      const eol = fence.rest.indexOf('\n', from);
      const line = fence.rest.slice(from, eol);
      if (fence.close.test(line)) {
        this.fence = undefined;
        return undefined;
      }
      add += fence.lines++ === 0 ? line : `\n${line}`;
      from = eol + 1;
    }
    if (from > 0) fence.rest = fence.rest.slice(from);
    const partial = fence.rest;
    // A last line that closes the fence closes it in the whole text too; nothing follows it yet.
    const last = fence.close.test(partial) ? '' : fence.lines === 0 ? partial : `\n${partial}`;
    const start = !this.fenceShown;
    this.fenceShown = true;
    return { t: 'fence', lang: fence.lang, start, add, last };
  }

  private readTail(): StreamStep {
    const lines = this.tail.split('\n');
    const read = readBlocks(lines);
    const frozen: Block[] = [];
    let cut = 0;
    let k = 0;
    // Final: everything its reading looked at is a whole line (the last line may still grow).
    for (; k < read.length && read[k].looked < lines.length - 1; k++) {
      frozen.push(read[k].block);
      cut = read[k].end;
    }
    if (cut > 0) this.tail = lines.slice(cut).join('\n');
    const open = read.slice(k).map((r) => r.block);
    this.fenceShown = false;
    this.fence = this.openFence(lines.slice(cut), open);
    if (this.fence) {
      const step = this.fenceStep(this.fence);
      if (step) return { frozen, open: step };
    }
    return { frozen, open: { t: 'blocks', blocks: open } };
  }

  /** An unclosed fence that opens on a whole line, alone in what is open: followed line by line from now on. */
  private openFence(lines: readonly string[], open: readonly Block[]): OpenFence | undefined {
    if (open.length !== 1 || open[0].t !== 'code') return undefined;
    const at = lines.findIndex((line) => line.trim() !== '');
    if (at < 0 || at >= lines.length - 1) return undefined;
    const opening = fenceOpening(lines[at]);
    if (!opening) return undefined;
    // Unclosed: no whole line after the opening one closes it.
    for (let i = at + 1; i < lines.length - 1; i++) if (opening.close.test(lines[i])) return undefined;
    return { lang: opening.lang, close: opening.close, rest: lines.slice(at + 1).join('\n'), lines: 0 };
  }
}
