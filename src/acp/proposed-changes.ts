/**
 * An edit an agent proposes, as its tool call's `diff` content says it (ACP: `{type: "diff",
 * path, oldText, newText}`): how many lines change in how many files (counted as the session
 * panel's badges count them, elicitation/line-changes.ts), the changes grouped by file and checked
 * against the session's folders (a file outside is never shown: the dialog says so), and the
 * whole proposed text of a file, worked out from its text as it is now.
 *
 * Agents send either the whole new file (`oldText` absent: a new file or a rewrite; or
 * `oldText` the whole old file) or a replaced snippet (Claude Code's Edit: `old_string` and
 * `new_string`). A snippet is placed where it occurs exactly once; where it does not, the
 * change cannot be shown against the file, only as the agent sent it. Pure but for
 * `checkChanges`, which looks at the disk through file-access.ts.
 */
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import type { FileChange, TextEdit } from '../elicitation/request';
import { checkFileAccess, FileAccessError } from './file-access';
import { changeSummary as summaryOf, editWords as lineEditWords } from '../elicitation/line-changes';

/** Files whose changes one permission carries to the person; more are counted but not shown. */
export const MAX_CHANGED_FILES = 20;
/** The longest text (characters) a diff is shown for: past it, the dialog says it is too large. */
export const MAX_DIFF_TEXT = 4_000_000;

/** The diff items of a tool call's content, each checked for shape (an agent may send anything). */
export function diffsOf(content: readonly ToolCallContent[] | null | undefined): { readonly path: string; readonly edit: TextEdit }[] {
  const diffs: { path: string; edit: TextEdit }[] = [];
  for (const item of content ?? []) {
    if (item?.type !== 'diff' || typeof item.path !== 'string' || item.path === '' || typeof item.newText !== 'string') continue;
    diffs.push({ path: item.path, edit: { newText: item.newText, ...(typeof item.oldText === 'string' && { oldText: item.oldText }) } });
  }
  return diffs;
}

/** "+3 −1 lines" for one diff item, or "new file, 12 lines" (no old text: ACP's new file). */
export const editWords = lineEditWords;

/** "It changes 4 lines (3 added, 1 removed) in 2 files.": what the dialog says first of an edit; undefined without diffs. */
export function changeSummary(content: readonly ToolCallContent[] | null | undefined): string | undefined {
  return summaryOf(diffsOf(content));
}

/**
 * The tool call's changes by file, each checked against the session's folders as a write
 * would be (a file that does not exist yet may be created inside): a file outside, or
 * reached through a link that leads out, carries why it is not shown. At most
 * MAX_CHANGED_FILES files.
 */
export async function checkChanges(content: readonly ToolCallContent[] | null | undefined, folders: readonly string[]): Promise<FileChange[]> {
  const byPath = new Map<string, TextEdit[]>();
  for (const { path, edit } of diffsOf(content)) {
    const edits = byPath.get(path) ?? [];
    if (edits.length === 0 && byPath.size >= MAX_CHANGED_FILES) continue;
    edits.push(edit);
    byPath.set(path, edits);
  }
  return Promise.all(
    [...byPath].map(async ([path, edits]): Promise<FileChange> => {
      const change = { path, edits, folders };
      const length = edits.reduce((sum, e) => sum + e.newText.length + (e.oldText?.length ?? 0), 0);
      if (length > MAX_DIFF_TEXT) return { ...change, refused: `its change is too large to show (${length.toLocaleString('en-US')} characters; at most ${MAX_DIFF_TEXT.toLocaleString('en-US')})` };
      try {
        await checkFileAccess(path, folders, 'write');
        return change;
      } catch (error) {
        if (error instanceof FileAccessError) return { ...change, refused: error.why };
        return { ...change, refused: `it cannot be checked: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
      }
    }),
  );
}

/** Where `snippet` occurs exactly once in `text`, else -1. */
function onlyPlace(text: string, snippet: string): number {
  const at = text.indexOf(snippet);
  return at >= 0 && text.indexOf(snippet, at + 1) < 0 ? at : -1;
}

/**
 * The file's whole text once the edits are made, in order, over `current` (its text now;
 * undefined when it does not exist): an edit without `oldText`, or whose `oldText` is the
 * whole text, replaces it all; a snippet replaces its one occurrence (in the file's own line
 * ends). Undefined when a snippet is not found exactly once: the change cannot be placed.
 */
export function proposedText(current: string | undefined, edits: readonly TextEdit[]): string | undefined {
  let text = current ?? '';
  const crlf = text.includes('\r\n');
  for (const edit of edits) {
    if (edit.oldText === undefined || edit.oldText === text) {
      text = edit.newText;
      continue;
    }
    if (edit.oldText === '') return undefined;
    const asFile = (s: string): string => (crlf && !s.includes('\r\n') ? s.replace(/\n/g, '\r\n') : s);
    const [oldText, newText] = onlyPlace(text, edit.oldText) >= 0 ? [edit.oldText, edit.newText] : [asFile(edit.oldText), asFile(edit.newText)];
    const at = onlyPlace(text, oldText);
    if (at < 0) return undefined;
    text = `${text.slice(0, at)}${newText}${text.slice(at + oldText.length)}`;
  }
  return text;
}
