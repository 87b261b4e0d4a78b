/**
 * The Markdown an agent writes, read into blocks and inline runs that the session page turns
 * into elements with text content. No HTML is ever produced or parsed: raw HTML in the
 * agent's text is shown as the text it is. The subset is what agents write: paragraphs,
 * headings, fenced and indented code, lists (nested by indent), quotes, rules, tables,
 * inline code, bold, italics, strike-through and links (shown, never followed from here).
 * Pure, so it is tested under plain Node.
 */

export type Inline =
  | { readonly t: 'text'; readonly text: string }
  | { readonly t: 'code'; readonly text: string }
  | { readonly t: 'strong' | 'em' | 'del'; readonly children: readonly Inline[] }
  | { readonly t: 'link'; readonly href: string; readonly children: readonly Inline[] }
  | { readonly t: 'break' };

export interface ListItem {
  readonly content: readonly Inline[];
  /** A task list's box: `- [x] done`. */
  readonly checked?: boolean;
  readonly children: readonly Block[];
}

export type Block =
  | { readonly t: 'paragraph'; readonly content: readonly Inline[] }
  | { readonly t: 'heading'; readonly level: number; readonly content: readonly Inline[] }
  | { readonly t: 'code'; readonly lang: string; readonly text: string }
  | { readonly t: 'quote'; readonly children: readonly Block[] }
  | { readonly t: 'list'; readonly ordered: boolean; readonly start: number; readonly items: readonly ListItem[] }
  | { readonly t: 'rule' }
  | { readonly t: 'table'; readonly head: readonly (readonly Inline[])[]; readonly rows: readonly (readonly (readonly Inline[])[])[] };

/** Deeper nesting is shown flat: a hostile reply cannot make the page recurse without end. */
const MAX_DEPTH = 8;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^(\s*)([-*+])\s+(.*)$/;
const ORDERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function indentOf(line: string): number {
  const match = /^[ \t]*/.exec(line)![0];
  return match.replace(/\t/g, '    ').length;
}

function tableCells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Whether a line starts a block other than a paragraph (so it ends a paragraph). */
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || BULLET.test(line) || ORDERED.test(line) || QUOTE.test(line);
}

export function parseMarkdown(source: string, depth = 0): Block[] {
  return readBlocks(source.replace(/\r\n?/g, '\n').split('\n'), depth).map((read) => read.block);
}

/**
 * One block as the reader read it: the line after it (`end`), and the last line its reading
 * looked at (`looked`; `lines.length` when it ran into the end of the text, where more text
 * could have changed it). A block whose lines up to `looked` cannot change stays as it is,
 * whatever text comes after them: what the streamed reply's drawing relies on (markdown-stream.ts).
 */
export interface ReadBlock {
  readonly block: Block;
  readonly end: number;
  readonly looked: number;
}

/** The blocks of `lines`, in order, each with how far its reading went. */
export function readBlocks(lines: readonly string[], depth = 0): ReadBlock[] {
  const blocks: ReadBlock[] = [];
  /** Where a reading loop stopped: at a line it looked at, or at the end. */
  const stoppedAt = (i: number): number => Math.min(i, lines.length);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const close = fenceCloser(fence[1]);
      const body: string[] = [];
      i++;
      while (i < lines.length && !close.test(lines[i])) body.push(lines[i++]);
      // The closing fence is the last line read; an unclosed fence runs to the end.
      const looked = stoppedAt(i);
      i++;
      blocks.push({ block: { t: 'code', lang: fence[2], text: body.join('\n') }, end: i, looked });
      continue;
    }
    if (indentOf(line) >= 4 && depth === 0) {
      const body: string[] = [];
      while (i < lines.length && (indentOf(lines[i]) >= 4 || isBlank(lines[i]))) body.push(lines[i++].replace(/^( {4}|\t)/, ''));
      while (body.length > 0 && isBlank(body[body.length - 1])) body.pop();
      blocks.push({ block: { t: 'code', lang: '', text: body.join('\n') }, end: i, looked: stoppedAt(i) });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ block: { t: 'heading', level: heading[1].length, content: parseInline(heading[2] ?? '') }, end: i + 1, looked: i });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ block: { t: 'rule' }, end: i + 1, looked: i });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !isBlank(lines[i])) {
        const quoted = QUOTE.exec(lines[i]);
        body.push(quoted ? quoted[1] : lines[i]);
        i++;
      }
      const text = body.join('\n');
      blocks.push({ block: depth < MAX_DEPTH ? { t: 'quote', children: parseMarkdown(text, depth + 1) } : { t: 'paragraph', content: parseInline(text) }, end: i, looked: stoppedAt(i) });
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const [list, next] = parseList(lines, i, depth);
      // A list looks one line past where it stops (is a blank line followed by more of it?).
      blocks.push({ block: list, end: next, looked: next + 1 >= lines.length ? lines.length : next + 1 });
      i = next;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DIVIDER.test(lines[i + 1])) {
      const head = tableCells(line).map(parseInline);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && !isBlank(lines[i]) && lines[i].includes('|')) rows.push(tableCells(lines[i++]).map(parseInline));
      blocks.push({ block: { t: 'table', head, rows }, end: i, looked: stoppedAt(i) });
      continue;
    }
    const body: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && (body.length === 0 || !startsBlock(lines[i]))) body.push(lines[i++]);
    blocks.push({ block: { t: 'paragraph', content: parseInline(body.join('\n')) }, end: i, looked: stoppedAt(i) });
  }
  return blocks;
}

/** What closes a fence opened by `marker` (three or more backticks or tildes): as many or more of the same, alone on a line. */
function fenceCloser(marker: string): RegExp {
  return new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
}

/** If `line` opens a code fence, what closes it. */
export function fenceOpening(line: string): { readonly lang: string; readonly close: RegExp } | undefined {
  const fence = FENCE.exec(line);
  return fence ? { lang: fence[2], close: fenceCloser(fence[1]) } : undefined;
}

function parseList(lines: readonly string[], start: number, depth: number): [Block, number] {
  const first = BULLET.exec(lines[start]) ?? ORDERED.exec(lines[start])!;
  const ordered = !BULLET.test(lines[start]);
  const baseIndent = indentOf(lines[start]);
  const items: ListItem[] = [];
  let i = start;
  while (i < lines.length) {
    const match = ordered ? ORDERED.exec(lines[i]) : BULLET.exec(lines[i]);
    if (!match || indentOf(lines[i]) !== baseIndent) break;
    let text = match[3];
    let checked: boolean | undefined;
    const box = /^\[([ xX])\]\s+(.*)$/.exec(text);
    if (box) {
      checked = box[1] !== ' ';
      text = box[2];
    }
    const rest: string[] = [];
    i++;
    // The item's own lines: continuation text and anything indented under it.
    while (i < lines.length) {
      const next = lines[i];
      if (isBlank(next)) {
        if (i + 1 < lines.length && indentOf(lines[i + 1]) > baseIndent) {
          rest.push('');
          i++;
          continue;
        }
        break;
      }
      if (indentOf(next) > baseIndent) {
        rest.push(next.slice(Math.min(indentOf(next), baseIndent + 2)));
        i++;
        continue;
      }
      if (BULLET.test(next) || ORDERED.test(next) || startsBlock(next)) break;
      text += `\n${next.trim()}`;
      i++;
    }
    const nested = rest.join('\n');
    const children = nested.trim() === '' ? [] : depth < MAX_DEPTH ? parseMarkdown(nested, depth + 1) : [{ t: 'paragraph' as const, content: parseInline(nested) }];
    items.push({ content: parseInline(text), ...(checked !== undefined && { checked }), children });
    if (i < lines.length && isBlank(lines[i]) && i + 1 < lines.length) {
      const after = lines[i + 1];
      const same = ordered ? ORDERED.exec(after) : BULLET.exec(after);
      if (same && indentOf(after) === baseIndent) i++;
    }
  }
  return [{ t: 'list', ordered, start: ordered ? Number(first[2]) : 1, items }, i];
}

/** Inline runs: code spans first (nothing inside them is Markdown), then links, emphasis, breaks. */
export function parseInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain) out.push({ t: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!|~<>]/.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const close = text.indexOf(run, i + run.length);
      if (close > 0) {
        flush();
        out.push({ t: 'code', text: text.slice(i + run.length, close).replace(/^ (.*) $/s, '$1') });
        i = close + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (c === '[' && depth < MAX_DEPTH) {
      const link = /^\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(i));
      if (link) {
        flush();
        out.push({ t: 'link', href: link[2], children: parseInline(link[1], depth + 1) });
        i += link[0].length;
        continue;
      }
    }
    const emphasis = depth < MAX_DEPTH ? /^(\*\*|__|~~|\*|_)/.exec(text.slice(i)) : null;
    if (emphasis) {
      const marker = emphasis[1];
      // `_` inside a word (snake_case) is not emphasis.
      const intraword = marker[0] === '_' && i > 0 && /\w/.test(text[i - 1]);
      const close = intraword ? -1 : findClose(text, i + marker.length, marker);
      if (close > i + marker.length) {
        flush();
        const children = parseInline(text.slice(i + marker.length, close), depth + 1);
        out.push({ t: marker === '~~' ? 'del' : marker.length === 2 ? 'strong' : 'em', children });
        i = close + marker.length;
        continue;
      }
      plain += marker;
      i += marker.length;
      continue;
    }
    if (c === '\n') {
      // A line break stays one: agents wrap deliberately.
      flush();
      out.push({ t: 'break' });
      i++;
      continue;
    }
    plain += c;
    i++;
  }
  flush();
  return out;
}

function findClose(text: string, from: number, marker: string): number {
  if (/\s/.test(text[from] ?? ' ')) return -1;
  let at = from;
  while (at < text.length) {
    const found = text.indexOf(marker, at);
    if (found < 0) return -1;
    const before = text[found - 1];
    const after = text[found + marker.length];
    const wordAfter = marker[0] === '_' && after !== undefined && /\w/.test(after);
    // A single * or _ must not be half of a double marker.
    const doubled = marker.length === 1 && (text[found + 1] === marker || text[found - 1] === marker);
    if (before !== undefined && !/\s/.test(before) && !wordAfter && !doubled) return found;
    at = found + marker.length;
  }
  return -1;
}

/** The plain text of inline runs (for a code block's copy, a tooltip, a test). */
export function inlineText(runs: readonly Inline[]): string {
  return runs.map((run) => (run.t === 'text' || run.t === 'code' ? run.text : run.t === 'break' ? '\n' : inlineText(run.children))).join('');
}
