/**
 * An ACP agent's `session/request_permission` as one question to the person, and the
 * answer as ACP's outcome. The gateway's model for Claude Code's permission hook
 * (src/gateway/permission-question.ts): the agent asks before it acts, so a tool call that
 * changes things (`execute`, `edit`, `delete`, `move`) is the person's own confirmation,
 * a modal; its input is fitted to the dialog the same way (fit-text.ts: whole when it fits,
 * else its start, its end and every line that runs something, the whole beside it for the
 * dialog to open). Pure.
 *
 * A call whose input carries a command runs something, whatever kind the agent gives it: it
 * is asked as a call that runs something (a modal, "run a command"), the agent's kind said.
 *
 * The choices are the agent's options, named as it names them (an `*_always` option whose
 * name does not say so gets " (always)": the person must know the answer lasts); where a
 * name says the opposite of what the option does ("Reject" that allows for good), the
 * option's kind decides the words and the agent's name is quoted beside them. The first
 * reject option is the default. Declining or dismissing answers that reject option; only a
 * cancelled turn answers `cancelled`, as ACP asks.
 */
import type { PermissionOption, RequestPermissionOutcome, RequestPermissionRequest, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { FormParams } from '../elicitation/broker';
import type { ElicitResult } from '../elicitation/model';
import { DIALOG_ROOM, type Room, textRows } from '../elicitation/fit-text';
import { type ApprovedInput, aside, DECISION_FIELD, fitPermission } from '../elicitation/permission-text';
import type { RequestSource, WholeInput } from '../elicitation/request';
import { isRecord } from '../base/is-record';
import { changeSummary, editWords } from './proposed-changes';

/** Tool kinds whose calls change files or run programs: asked in a modal, reject the default. */
const CHANGING_KINDS = new Set(['execute', 'edit', 'delete', 'move']);

const KIND_WORDS: Readonly<Record<string, string>> = {
  read: 'read files',
  edit: 'edit files',
  delete: 'delete files',
  move: 'move files',
  search: 'search',
  execute: 'run a command',
  think: 'think',
  fetch: 'fetch from the web',
  switch_mode: 'switch its mode',
  other: 'use a tool',
};

const OPTION_WORDS: Readonly<Record<string, string>> = {
  allow_once: 'Allow once',
  allow_always: 'Always allow',
  reject_once: 'Reject',
  reject_always: 'Always reject',
};

/** Who asks: the configured agent, in which session (by title). */
export interface PermissionAsker {
  readonly agent: string;
  readonly session?: string;
}

/** The kind the agent gave the call, as one of ours ('other' for none or one we do not know). */
function declaredKind(toolCall: ToolCallUpdate): string {
  return typeof toolCall.kind === 'string' && toolCall.kind in KIND_WORDS ? toolCall.kind : 'other';
}

/** The kind the person is asked about: the agent's, except that a call whose input carries a command runs something. */
export function toolKind(toolCall: ToolCallUpdate): string {
  return commandOf(toolCall.rawInput) !== undefined ? 'execute' : declaredKind(toolCall);
}

/** The command of a shell-like tool call, when its raw input carries one. */
function commandOf(rawInput: unknown): string | undefined {
  if (!isRecord(rawInput)) return undefined;
  const command = rawInput.command ?? rawInput.cmd;
  if (typeof command === 'string' && command !== '') return command;
  if (Array.isArray(command) && command.every((c) => typeof c === 'string')) return command.join(' ');
  return undefined;
}

/** The files the tool call names: its locations and the paths of its diffs, once each. */
export function filesOf(toolCall: ToolCallUpdate): string[] {
  const files = new Set<string>();
  for (const location of toolCall.locations ?? []) {
    if (typeof location?.path === 'string') files.add(typeof location.line === 'number' ? `${location.path}:${location.line}` : location.path);
  }
  for (const item of toolCall.content ?? []) if (item.type === 'diff' && typeof item.path === 'string') files.add(item.path);
  return [...files];
}

/** The input a person approves: the command, else the raw input, as the agent sent it. */
function inputOf(toolCall: ToolCallUpdate): ApprovedInput | undefined {
  const command = commandOf(toolCall.rawInput);
  if (command !== undefined) return { name: 'command', text: command, language: 'shellscript', kind: 'shell' };
  const raw = toolCall.rawInput;
  if (raw !== undefined && raw !== null && !(isRecord(raw) && Object.keys(raw).length === 0)) {
    return { name: 'input', text: JSON.stringify(raw, null, 2) ?? String(raw), language: 'json', kind: 'text' };
  }
  return undefined;
}

/**
 * What the tool call is about to do, as text fitted to the room (a dialog's): title and kind,
 * the command or raw input (its start, its end and what runs when it does not fit), the
 * agent's words, the changes, the files; and the whole input when the text shows only part.
 */
export function describeToolCall(toolCall: ToolCallUpdate, room: Room = DIALOG_ROOM, titleShown = false): { text: string; whole?: WholeInput } {
  const kind = toolKind(toolCall);
  const declared = typeof toolCall.kind === 'string' && toolCall.kind !== kind ? `; the agent gave the kind ${aside(JSON.stringify(toolCall.kind), room, 1)}` : '';
  // The title once: left out here when the heading shows it whole already.
  const summary = changeSummary(toolCall.content);
  const before = [...(titleShown ? [] : [aside(toolCall.title ?? '(no title)', room)]), `Kind: ${kind} (${KIND_WORDS[kind]}${declared})`, ...(summary !== undefined ? [summary] : [])];
  const input = inputOf(toolCall);
  const after: string[] = [];
  for (const item of toolCall.content ?? []) {
    if (item.type === 'content' && item.content.type === 'text' && item.content.text.trim() !== '' && item.content.text !== input?.text) {
      after.push(aside(item.content.text, room));
    }
    if (item.type === 'diff') {
      after.push(`Changes ${aside(item.path, room, 1)} (${editWords(item.oldText, item.newText)}):\n${aside(item.newText, room, 6)}`);
    }
  }
  const files = filesOf(toolCall);
  if (files.length > 0) after.push(`Files it touches:\n${files.map((f) => aside(f, room, 1)).join('\n')}`);
  const heading = input?.name === 'command' ? 'Command' : 'Input';
  const fitted = fitPermission({ before, heading, ...(input && { input }), after }, room);
  return { text: fitted.text, ...(fitted.whole && { whole: fitted.whole }) };
}

/** The first words of an option's name, past "always" or "just": what it says it does. */
const SAYS_ALLOW = /^(?:allow|yes|approve|accept|permit|grant|ok|okay|proceed|continue|run|confirm|trust)\b/i;
const SAYS_REJECT = /^(?:reject|deny|no|decline|refuse|disallow|don'?t|do not|never|cancel|block|skip|stop|abort|forbid)\b/i;
const SAYS_ALWAYS = /\b(?:always|forever|never|permanently|from now on|don'?t ask again)\b/i;
const SAYS_ONCE = /\b(?:once|this time|just this|only this)\b/i;

/** Whether the option's name says the opposite of what its kind does: allows where it rejects, once where it lasts, or the reverse. */
function contradicts(name: string, kind: string): boolean {
  const start = name.replace(/^(?:(?:always|once|just|only)[\s,]+)+/i, '');
  const allows = kind.startsWith('allow_');
  if (allows ? SAYS_REJECT.test(start) && !SAYS_ALLOW.test(start) : SAYS_ALLOW.test(start) && !SAYS_REJECT.test(start)) return true;
  const always = kind.endsWith('_always');
  return always ? SAYS_ONCE.test(name) && !SAYS_ALWAYS.test(name) : SAYS_ALWAYS.test(name) && !SAYS_ONCE.test(name);
}

/** Longest agent name quoted beside our words. */
const QUOTED_NAME = 60;

/**
 * The option's name as the agent gives it; an always option that does not say so says it.
 * A name that says the opposite of the option's kind is not the option's words: the kind's
 * are, with the agent's name quoted beside them.
 */
export function optionLabel(option: PermissionOption): string {
  const name = typeof option.name === 'string' ? option.name.trim() : '';
  const words = OPTION_WORDS[option.kind];
  if (name !== '' && words !== undefined && contradicts(name, option.kind)) {
    const quoted = name.length > QUOTED_NAME ? `${name.slice(0, QUOTED_NAME - 1)}…` : name;
    return `${words} (the agent named it "${quoted}")`;
  }
  const label = name === '' ? (words ?? option.optionId) : name;
  return option.kind.endsWith('_always') && !/always/i.test(label) ? `${label} (always)` : label;
}

/** The agent's options, each id once (a repeated id could not tell the answers apart). */
function distinctOptions(request: RequestPermissionRequest): PermissionOption[] {
  const seen = new Set<string>();
  return request.options.filter((o) => typeof o.optionId === 'string' && !seen.has(o.optionId) && seen.add(o.optionId));
}

/** The option a "no" stands for: the first `reject_once`, else none (a lasting reject is the person's own choice). */
function rejectOnce(request: RequestPermissionRequest): PermissionOption | undefined {
  return request.options.find((o) => o.kind === 'reject_once');
}

/** Asked in a modal, with the reject option the default: the tool call changes things. */
export function changesThings(toolCall: ToolCallUpdate): boolean {
  return CHANGING_KINDS.has(toolKind(toolCall));
}

/**
 * The question put to the person, who it shows as asking, and `shown`: what the dialog
 * shows of the tool call (for a log of what a rule answered without asking).
 */
export function permissionQuestion(asker: PermissionAsker, request: RequestPermissionRequest, room: Room = DIALOG_ROOM): { params: FormParams; source: RequestSource; shown: string; whole?: WholeInput } {
  const { toolCall } = request;
  const kind = toolKind(toolCall);
  const changing = changesThings(toolCall);
  const tool = aside(toolCall.title ?? KIND_WORDS[kind], { rows: 1, columns: 120 }, 1);
  const source: RequestSource = {
    server: asker.agent,
    requester: 'agent',
    approval: true,
    tool,
    ...(asker.session !== undefined && { session: asker.session }),
    // The agent the person runs asks before it acts: their own confirmation, a modal where it changes things.
    ...(changing && { destructive: true, personStarted: true }),
  };
  const options = distinctOptions(request);
  const byDefault = options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
  const intro = `${asker.agent} asks for permission to ${KIND_WORDS[kind]}.`;
  // Every prompt heads the question with who asks and the tool (the dialog's heading, the quick pick's title).
  const described = describeToolCall(toolCall, { rows: room.rows - textRows(intro, room.columns) - 1, columns: room.columns }, tool === toolCall.title);
  return {
    source,
    shown: described.text,
    ...(described.whole && { whole: described.whole }),
    params: {
      message: `${intro}\n\n${described.text}`,
      requestedSchema: {
        type: 'object',
        properties: {
          [DECISION_FIELD]: {
            type: 'string',
            title: 'Permission',
            oneOf: options.map((o) => ({ const: o.optionId, title: optionLabel(o) })),
            ...(byDefault && { default: byDefault.optionId }),
          },
        },
        required: [DECISION_FIELD],
      },
    },
  };
}

/**
 * The person's answer as ACP's outcome. A cancelled turn answers `cancelled`; a decline or
 * a dismissal answers the agent's one-time reject (or `cancelled` when it offers none).
 */
export function permissionOutcome(request: RequestPermissionRequest, result: ElicitResult, turnCancelled: boolean): RequestPermissionOutcome {
  if (turnCancelled) return { outcome: 'cancelled' };
  if (result.action === 'accept') {
    const chosen = result.content?.[DECISION_FIELD];
    const option = request.options.find((o) => o.optionId === chosen);
    if (option) return { outcome: 'selected', optionId: option.optionId };
  }
  const no = rejectOnce(request);
  return no ? { outcome: 'selected', optionId: no.optionId } : { outcome: 'cancelled' };
}
