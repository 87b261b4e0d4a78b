/**
 * A tool call's input as a permission shows it, whoever asks (an ACP agent, an agent host,
 * Claude Code's hook): the command when it carries one, and then every other field of it,
 * so nothing that changes what runs is left unsaid; the fields that only explain the call
 * (`description`) are the agent's words, not input; and what makes the call reach further
 * than its command reads (outside the sandbox, in the background, in another folder, with
 * variables that change what programs load) said in words, for the top of the question.
 * Pure.
 */
import { isRecord } from '../base/is-record';
import type { ApprovedInput } from './permission-text';
import { changesLoading } from './loader-variables';

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

/** The input's fields the question has not shown yet, words-only fields aside: each as `name: value`, in the asker's order. */
export function otherFields(input: CallInput): string[] {
  return Object.entries(input.fields)
    .filter(([name, value]) => !input.said.includes(name) && !(WORDS_ONLY.has(name) && typeof value === 'string'))
    .map(([name, value]) => `${name}: ${JSON.stringify(value) ?? String(value)}`);
}

/** The input's words-only fields the question has not shown yet: the agent's account of the call. */
export function inputWords(input: CallInput): string[] {
  return Object.entries(input.fields)
    .filter((entry): entry is [string, string] => !input.said.includes(entry[0]) && WORDS_ONLY.has(entry[0]) && typeof entry[1] === 'string' && entry[1].trim() !== '')
    .map(([, value]) => value);
}

/** Fields that run the call outside the agent's sandbox: Claude Code's, Codex's two generations'. */
function outsideSandbox(fields: Readonly<Record<string, unknown>>): boolean {
  return fields.dangerouslyDisableSandbox === true || fields.with_escalated_permissions === true || fields.sandbox_permissions === 'require_escalated';
}

/** Fields that leave the call running after it returns: Claude Code's, VS Code's `run_in_terminal`, others'. */
function inBackground(fields: Readonly<Record<string, unknown>>): boolean {
  return ['run_in_background', 'isBackground', 'is_background', 'background'].some((name) => fields[name] === true);
}

/** Fields naming the folder the call runs in (Codex's `workdir`, Gemini's `directory`, an agent host's `cwd`). */
const FOLDER_FIELDS = ['cwd', 'workdir', 'working_directory', 'workingDirectory', 'directory'];
/** Fields holding the environment the call runs with. */
const ENV_FIELDS = ['env', 'environment'];

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * What makes the call reach further than its command or title says, in words: "outside
 * the sandbox", "in the background", "in /home/me/.ssh", "with LD_PRELOAD=/tmp/x.so" (each
 * variable that changes what programs load named with its value, the others counted).
 * Empty when nothing does. The values are as the agent sent them: the caller fits them.
 */
export function reachWords(fields: Readonly<Record<string, unknown>>): string[] {
  const words: string[] = [];
  if (outsideSandbox(fields)) words.push('outside the sandbox');
  if (inBackground(fields)) words.push('in the background');
  for (const name of FOLDER_FIELDS) {
    const folder = fields[name];
    if (typeof folder === 'string' && folder.trim() !== '') {
      words.push(`in ${folder}`);
      break;
    }
  }
  for (const name of ENV_FIELDS) {
    const env = fields[name];
    if (!isRecord(env)) continue;
    const entries = Object.entries(env);
    const loading = entries.filter(([key]) => changesLoading(key));
    const others = entries.length - loading.length;
    const named = loading.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    if (named.length > 0) words.push(`with ${named.join(', ')}${others > 0 ? ` and ${plural(others, 'other environment variable')}` : ''}`);
    else if (others > 0) words.push(`with ${plural(others, 'environment variable')} set`);
  }
  return words;
}
