/**
 * A tool call's input as a permission shows it, whoever asks (an ACP agent, an agent host,
 * Claude Code's hook): the command when it carries one, else the whole input as JSON; the
 * fields that only explain the call (`description`) are the agent's words, not input. Pure.
 */
import { isRecord } from '../base/is-record';
import type { ApprovedInput } from './permission-text';

/** A tool call's input: what is approved under its heading, and every field the asker sent. */
export interface CallInput {
  /** What runs or is written, shown under its heading and fitted (a command, a file's content); absent: no input shown apart from its fields. */
  readonly main?: ApprovedInput;
  /** The input's fields as the asker sent them (none: the input was no object). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Fields the question shows already (in `main`, or in the asker's words: a file's path in the heading): not listed again. */
  readonly said: readonly string[];
}

/** Fields an agent writes to explain a call (Claude Code's and Gemini's `description`, VS Code's `explanation` and `goal`, Codex's `justification`): its words, not what runs. */
const WORDS_ONLY = new Set(['description', 'explanation', 'justification', 'goal']);

/** The command of a shell-like input, when it carries one: `command` or `cmd`, a string or a list of words. */
export function commandOf(raw: unknown): { readonly field: string; readonly text: string } | undefined {
  if (!isRecord(raw)) return undefined;
  for (const field of ['command', 'cmd']) {
    const command = raw[field];
    if (command === undefined) continue;
    if (typeof command === 'string' && command !== '') return { field, text: command };
    if (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === 'string')) return { field, text: command.join(' ') };
    return undefined;
  }
  return undefined;
}

/** Whether an input says anything: an empty object is no input (agents send `{}` before they know it). */
export function saysInput(raw: unknown): boolean {
  return raw !== undefined && raw !== null && !(typeof raw === 'object' && Object.keys(raw).length === 0);
}

/**
 * A tool's raw input as the person approves it: the command (a shell's language) with the
 * rest of its fields beside it, else the whole input as JSON (which shows every field).
 * Undefined for no input.
 */
export function readCallInput(raw: unknown, shell = 'shellscript'): CallInput | undefined {
  if (!saysInput(raw)) return undefined;
  const command = commandOf(raw);
  const fields = isRecord(raw) ? raw : {};
  if (command) return { main: { name: 'command', text: command.text, language: shell, kind: 'shell' }, fields, said: [command.field] };
  return { main: { name: 'input', text: JSON.stringify(raw, null, 2) ?? String(raw), language: 'json', kind: 'text' }, fields, said: Object.keys(fields) };
}

/** The input's words-only fields the question has not shown yet: the agent's account of the call. */
export function inputWords(input: CallInput): string[] {
  return Object.entries(input.fields)
    .filter((entry): entry is [string, string] => !input.said.includes(entry[0]) && WORDS_ONLY.has(entry[0]) && typeof entry[1] === 'string' && entry[1].trim() !== '')
    .map(([, value]) => value);
}
