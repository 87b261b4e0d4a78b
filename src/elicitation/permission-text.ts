/**
 * A permission as a dialog shows it (permission.ts puts every asker's permission here:
 * Claude Code's hook and prompt tool, an ACP agent's, an agent host's; and the runner's log
 * of what a rule answered shows the same text): the words around the input,
 * each within a few rows, and the input itself (a command, a file's content, a tool's JSON)
 * fitted to the room that is left (fit-text.ts: whole when it fits, else its start, its end
 * and every line that runs something, with what is left out said), and the whole beside it
 * when only part shows. Also the answer's field name, which every permission asks in. Pure.
 */
import { type Room, shownInput, type TextKind, textRows } from './fit-text';
import type { WholeInput } from './request';

/** The field a permission's answer comes in: the chosen option (or grant). */
export const DECISION_FIELD = 'decision';

/** Rows each piece of agent text beside the input (a title, a description, a grant) may take. */
export const ASIDE_ROWS = 4;
/** Rows the input always gets, however much the words around it take. */
const MIN_INPUT_ROWS = 8;

/** Agent text beside the input: shown as it is (invisible characters made visible), within a few rows. */
export function aside(text: string, room: Room, rows = ASIDE_ROWS): string {
  return shownInput(text, { rows, columns: room.columns }).text;
}

/** What the person approves: a command, a file's content, a tool's input. */
export interface ApprovedInput {
  /** What it is, in a few words: "command", "file content", "input". */
  readonly name: string;
  /** As the agent sent it. */
  readonly text: string;
  /** A shell command keeps every line that runs something in view. */
  readonly kind: TextKind;
  /** The language to open it whole in (a VS Code language id). */
  readonly language: string;
}

export interface PermissionParts {
  /** Paragraphs before the input (already fitted with `aside`). */
  readonly before: readonly string[];
  /** The input's heading, without its colon: "Command", "Claude Code wants to run this shell command". */
  readonly heading: string;
  readonly input?: ApprovedInput;
  /** Say how many lines the input has even when it is shown whole (a file's content). */
  readonly countLines?: boolean;
  /** Paragraphs after the input (already fitted with `aside`). */
  readonly after: readonly string[];
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

const lines = (n: number): string => `${n.toLocaleString('en-US')} line${n === 1 ? '' : 's'}`;

/**
 * The permission as text that fits the room: the paragraphs before, the heading with the
 * input under it (its line count said when not all of it shows), the paragraphs after. The
 * input gets the rows the words leave, at least MIN_INPUT_ROWS; `whole` is set when the
 * text shows only part of it.
 */
export function fitPermission(parts: PermissionParts, room: Room): { readonly text: string; readonly complete: boolean; readonly whole?: WholeInput } {
  const { input } = parts;
  if (!input) return { text: [...parts.before, ...parts.after].join('\n\n'), complete: true };
  // Rows of everything but the input, with the widest heading it can get: the input's lines follow the heading's.
  const around = textRows([...parts.before, `${parts.heading} (${lines(9_999_999)}, not all shown):`, ...parts.after].join('\n\n'), room.columns);
  const fitted = shownInput(input.text, { rows: Math.max(MIN_INPUT_ROWS, room.rows - around), columns: room.columns }, input.kind);
  const count = lines(lineCount(input.text));
  const heading = fitted.complete ? `${parts.heading}${parts.countLines ? ` (${count})` : ''}:` : `${parts.heading} (${count}, not all shown):`;
  return {
    text: [...parts.before, `${heading}\n${fitted.text}`, ...parts.after].join('\n\n'),
    complete: fitted.complete,
    ...(!fitted.complete && { whole: { name: input.name, text: input.text, language: input.language } }),
  };
}
