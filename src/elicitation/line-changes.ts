/**
 * How much an edit changes, in lines, as the person reads it before approving it and as a
 * session's badges count it: lines added and removed (as multisets, not a diff), "+3 −1
 * lines" for one file's edit, "It changes 4 lines (3 added, 1 removed) in 2 files." for a
 * permission's. Pure: an ACP agent's diffs, and any asker's edits, are counted here.
 */
import type { TextEdit } from './request';

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

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** "+3 −1 lines" for one edit, or "new file, 12 lines" (no old text: a new file). */
export function editWords(oldText: string | null | undefined, newText: string): string {
  if (typeof oldText !== 'string') return `new file, ${plural(newText.split('\n').length, 'line')}`;
  const { added, removed } = changeSize(oldText, newText);
  return `+${added.toLocaleString('en-US')} −${removed.toLocaleString('en-US')} lines`;
}

/** One file's edit as an asker proposes it. */
export interface PathEdit {
  readonly path: string;
  readonly edit: TextEdit;
}

/** "It changes 4 lines (3 added, 1 removed) in 2 files.": what a permission says first of an edit; undefined without edits. */
export function changeSummary(edits: readonly PathEdit[]): string | undefined {
  if (edits.length === 0) return undefined;
  let added = 0;
  let removed = 0;
  for (const { edit } of edits) {
    const size = changeSize(edit.oldText, edit.newText);
    added += size.added;
    removed += size.removed;
  }
  const files = new Set(edits.map((d) => d.path)).size;
  return `It changes ${plural(added + removed, 'line')} (${added.toLocaleString('en-US')} added, ${removed.toLocaleString('en-US')} removed) in ${plural(files, 'file')}.`;
}
