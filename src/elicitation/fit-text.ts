/**
 * What a person approves, as a surface with limited room shows it: the whole text when it
 * fits; otherwise its start and its end, and for a shell command every line that runs
 * something, with what is left out said in its place ("<… 40 lines (1,234 characters)
 * hidden …>") and a flag that the text is incomplete, so the surface can offer the whole.
 * A line too long for the room is cut inside, saying so, never silently. Pure: the gateway
 * (Claude Code's permission requests) and the dialogs share it, and so will ACP agents'.
 */
import { collapseBlankLines, showInvisible } from './plain-text';
import { runningLines } from './shell-lines';

/** Room on a surface: rows of text at most `columns` characters wide. */
export interface Room {
  readonly rows: number;
  readonly columns: number;
}

/**
 * The room of a modal dialog's detail (VS Code's `showWarningMessage(..., {modal: true, detail})`)
 * that a person sees without scrolling. Measured in the workbench's own dialog (1.139.1, a
 * 1400×900 window): the dialog is as narrow as its text allows (`width: min-content`,
 * `min-width` 480 pixels), which leaves the detail 416 pixels, about 61 characters of its
 * 13-pixel system font; rows are 20 pixels, and the dialog takes at most 90% of the
 * window's height (about 35 rows of detail at 900 pixels, 26 at 720) before its text
 * scrolls. The desktop's native dialogs (`window.dialogStyle: native`, the default) do not
 * scroll at all. 24 rows of 56 characters fit a 720-pixel window with wider characters
 * than the measured ones; the UI test "a long command through --permission-prompt-tool"
 * holds that the dialog does not scroll. (The 1,500 characters shown before had no
 * measurement behind them: 30 lines of a command already scrolled.)
 */
export const DIALOG_ROOM: Room = { rows: 24, columns: 56 };

export type TextKind = 'shell' | 'text';

export interface FittedText {
  /** What to show. */
  readonly text: string;
  /** False when anything was left out: offer the whole. */
  readonly complete: boolean;
  /** Whole lines left out. */
  readonly hiddenLines: number;
  /** Characters left out (whole lines with their line breaks, and cut out of long lines). */
  readonly hiddenChars: number;
}

const TAB_WIDTH = 8;

/** Rows one line takes when wrapped at `columns` the way a `pre-wrap` block wraps it (at spaces, else anywhere). */
function rowsOf(line: string, columns: number): number {
  const text = line.includes('\t') ? line.replace(/\t/g, ' '.repeat(TAB_WIDTH)) : line;
  let start = 0;
  let rows = 1;
  while (text.length - start > columns) {
    let cut = text.lastIndexOf(' ', start + columns);
    if (cut <= start) cut = start + columns;
    start = cut;
    // Spaces at a break hang at the end of the row.
    while (text[start] === ' ') start++;
    if (start < text.length) rows++;
  }
  return rows;
}

/** Rows the text takes at this width. */
export function textRows(text: string, columns: number): number {
  return text.split('\n').reduce((sum, line) => sum + rowsOf(line, columns), 0);
}

const count = (n: number): string => n.toLocaleString('en-US');

function gapMarker(lines: number, chars: number, running: number | undefined): string {
  const which = running === undefined ? '' : running === 0 ? ': only comments and blank lines' : `, ${count(running)} of them not comments`;
  return `<… ${count(lines)} line${lines === 1 ? '' : 's'} (${count(chars)} characters) hidden${which} …>`;
}

/**
 * The widest a gap's marker gets: what the selection reserves for each gap. Made on first use:
 * the first toLocaleString sets up Intl (about 12 ms), which the extension's load should not pay.
 */
let widestMarker: string | undefined;
const widestMarkerText = (): string => (widestMarker ??= gapMarker(9_999_999, 99_999_999, 9_999_999));

/** A cut never splits a surrogate pair or one of our `<U+XXXX>` codes. */
function safeCut(text: string, at: number, forward: boolean): number {
  let i = at;
  const code = text.lastIndexOf('<U+', i);
  if (code >= 0 && code > i - 8 && text.indexOf('>', code) >= i) i = forward ? text.indexOf('>', code) + 1 : code;
  if (i > 0 && i < text.length && /[\uDC00-\uDFFF]/.test(text[i])) i += forward ? 1 : -1;
  return i;
}

/** A line longer than `max` characters: its start and its end, the middle said. */
function cutLine(line: string, max: number): { text: string; cut: number } {
  if (line.length <= max) return { text: line, cut: 0 };
  const keep = Math.max(2, max - 32);
  const head = safeCut(line, Math.floor(keep / 2), false);
  const tail = safeCut(line, line.length - (keep - head), true);
  const cut = tail - head;
  return { text: `${line.slice(0, head)}<… ${count(cut)} characters hidden …>${line.slice(tail)}`, cut };
}

/** Our line for a run of blank lines (plain-text.ts): says something, runs nothing. */
const BLANK_RUN = /^<\d+ blank lines>$/;

/** Fits already visible text (see shownInput) into the room. */
export function fitText(text: string, room: Room, kind: TextKind = 'text'): FittedText {
  if (textRows(text, room.columns) <= room.rows) return { text, complete: true, hiddenLines: 0, hiddenChars: 0 };
  const lines = text.split('\n');
  const n = lines.length;
  const maxLineRows = Math.max(2, Math.floor(room.rows / 4));
  const shown = lines.map((line) => cutLine(line, maxLineRows * room.columns));
  const rows = shown.map((s) => rowsOf(s.text, room.columns));
  const running = kind === 'shell' ? runningLines(lines).map((runs, i) => runs && !BLANK_RUN.test(lines[i])) : undefined;

  const markerRows = rowsOf(widestMarkerText(), room.columns);
  const kept = new Array<boolean>(n).fill(false);
  let used = 0;
  let gaps = 1;
  /** Keeps line i if the room allows (its rows, and a marker more or less as it splits or closes a gap). */
  const keep = (i: number): boolean => {
    if (kept[i]) return true;
    const leftHidden = i > 0 && !kept[i - 1];
    const rightHidden = i < n - 1 && !kept[i + 1];
    const gapChange = leftHidden && rightHidden ? 1 : leftHidden || rightHidden ? 0 : -1;
    if (used + rows[i] + (gaps + gapChange) * markerRows > room.rows) return false;
    kept[i] = true;
    used += rows[i];
    gaps += gapChange;
    return true;
  };
  // Who gets the room first: the end, the start, each line that runs something (from the
  // end), then the lines next to the start and the end, in turn, each side until one does not fit.
  keep(n - 1);
  keep(0);
  if (running) for (let i = n - 1; i >= 0; i--) if (running[i]) keep(i);
  let head = 1;
  let tail = n - 2;
  let headOpen = kept[0];
  let tailOpen = kept[n - 1];
  while ((headOpen || tailOpen) && head <= tail) {
    if (tailOpen) {
      if (keep(tail)) tail--;
      else tailOpen = false;
    }
    if (headOpen && head <= tail) {
      if (keep(head)) head++;
      else headOpen = false;
    }
  }

  const out: string[] = [];
  let hiddenLines = 0;
  let hiddenChars = 0;
  for (let i = 0; i < n; ) {
    if (kept[i]) {
      out.push(shown[i].text);
      hiddenChars += shown[i].cut;
      i++;
      continue;
    }
    let end = i;
    while (end < n && !kept[end]) end++;
    const gap = lines.slice(i, end);
    const chars = gap.reduce((sum, line) => sum + line.length + 1, 0);
    const marker = gapMarker(gap.length, chars, running?.slice(i, end).filter(Boolean).length);
    // One short line costs no more than the marker that would stand for it: shown instead.
    if (gap.length === 1 && shown[i].cut === 0 && rows[i] <= rowsOf(marker, room.columns)) {
      out.push(lines[i]);
    } else {
      out.push(marker);
      hiddenLines += gap.length;
      hiddenChars += chars;
    }
    i = end;
  }
  return { text: out.join('\n'), complete: hiddenLines === 0 && hiddenChars === 0, hiddenLines, hiddenChars };
}

/**
 * Text a person approves, shown in the room a surface has: invisible and control characters
 * made visible, runs of blank lines collapsed (both said), then fitted.
 */
export function shownInput(text: string, room: Room, kind: TextKind = 'text'): FittedText {
  return fitText(collapseBlankLines(showInvisible(text)), room, kind);
}
