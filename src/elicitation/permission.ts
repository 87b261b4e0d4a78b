/**
 * A permission in no protocol's terms: who asks; the tool call (its title, its kind, its
 * input, the files it touches, the edits it proposes, the asker's words about it); the
 * choices, each allowing or refusing, once or lastingly; what a lasting allow grants. Each
 * asker translates into it at its edge and out of it again: an ACP agent's
 * `session/request_permission` (src/acp/permission.ts), an agent host's tool confirmation
 * (src/ahp/tool-confirmation.ts), Claude Code's permission hook and prompt tool
 * (src/gateway/permission-question.ts). Here it becomes one question to the person and
 * their answer becomes a choice. Pure.
 *
 * The question: who asks and what the call does (a call that changes files or runs a
 * program is the person's own confirmation, a modal), what makes it reach further than its
 * command reads said first ("it runs outside the sandbox, in the background"), then the
 * title and kind, the input (the command whole when it fits, else its start, its end and
 * every line that runs something, the whole beside it: fit-text.ts), every other field of
 * the input, the asker's words, the edits and the files. The choices (permission-choices.ts)
 * are the asker's, named as it names them; a refusal is the default, an allow never is.
 * Beside it: `permission-choices` (the choices' words), `permission-input` (a tool input's
 * command, fields and reach), `permission-text` (fitting it to a dialog), `line-changes`
 * (an edit's size).
 */
import type { FormParams } from './broker';
import { DIALOG_ROOM, type Room, shownInput, textRows } from './fit-text';
import { changeSummary, editWords, type PathEdit } from './line-changes';
import type { ElicitResult } from './model';
import { choiceLabel, defaultChoice, distinctChoices, type PermissionChoice } from './permission-choices';
import { type CallInput, inputWords, otherFields, reachWords } from './permission-input';
import { aside, DECISION_FIELD, fitPermission } from './permission-text';
import type { PermissionRecord, RequestSource, WholeInput } from './request';

/** The kinds of tool call, as the person is told what a call does. */
export type CallKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

export const KIND_WORDS: Readonly<Record<CallKind, string>> = {
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

/** Kinds whose calls change files or run programs: asked in a modal, a refusal the default. */
const CHANGING_KINDS = new Set<CallKind>(['execute', 'edit', 'delete', 'move']);

/** The kind the person is asked about: the asker's, except that a call whose input carries a command runs something. */
export function callKind(declared: unknown, input: CallInput | undefined): CallKind {
  if (input?.main?.kind === 'shell') return 'execute';
  return typeof declared === 'string' && Object.hasOwn(KIND_WORDS, declared) ? (declared as CallKind) : 'other';
}

export interface PermissionAsker {
  /** As shown: the configured agent, "Claude (my-laptop)", "Claude Code". */
  readonly name: string;
  /** An agent the person runs asks in one of its sessions (ACP, an agent host); otherwise a tool asks for itself (Claude Code's hook). */
  readonly agent?: boolean;
  /** The session's title. */
  readonly session?: string;
}

export interface PermissionCall {
  /** As the asker names the call. */
  readonly title?: string;
  readonly kind: CallKind;
  /** The asker's own kind, said beside ours when it differs (a "read" whose input carries a command). */
  readonly declaredKind?: string;
  /**
   * The asker's account of the call, heading its input ("Claude Code wants to run this
   * shell command"). Without it the question says who asks to do what kind of thing, then
   * the call's title and kind.
   */
  readonly says?: string;
  readonly input?: CallInput;
  /** Say how many lines the input has even when it is shown whole (a file's content). */
  readonly countLines?: boolean;
  /** The asker's words about the call, each shown once. */
  readonly notes?: readonly string[];
  readonly edits?: readonly PathEdit[];
  readonly files?: readonly string[];
}

export interface Permission {
  readonly asker: PermissionAsker;
  readonly call: PermissionCall;
  readonly choices: readonly PermissionChoice[];
  /** What the lasting allow grants, when the asker says (Claude Code's rules), and for how long. */
  readonly grant?: { readonly what: string; readonly until: string };
  /** What a dismissal answers: a refusal (the default), or nothing, so the asker asks elsewhere (Claude Code's hook: its terminal). */
  readonly dismissal?: 'refuses' | 'undecided';
}

/** What goes with the question to the broker. */
export interface PermissionContext {
  readonly source: RequestSource;
  readonly whole?: WholeInput;
  /** What the choices do: the History says which was chosen. */
  readonly permission: PermissionRecord;
}

export interface PermissionQuestion {
  readonly params: FormParams;
  readonly source: RequestSource;
  /** What the question shows of the call, without who asks (for a log of what a rule answered unasked). */
  readonly shown: string;
  readonly whole?: WholeInput;
  readonly context: PermissionContext;
}

/** Rows the input's other fields may take before they are cut (the whole then opens). */
const FIELD_ROWS = 6;

/** The input's other fields, fitted; `whole` when not all of them show: the whole input, which has them all. */
function fieldsPart(input: CallInput | undefined, room: Room): { text?: string; whole?: WholeInput } {
  const fields = input ? otherFields(input) : [];
  if (!input || fields.length === 0) return {};
  const fitted = shownInput(fields.join('\n'), { rows: FIELD_ROWS, columns: room.columns });
  return {
    text: `Also in its input:\n${fitted.text}`,
    ...(!fitted.complete && { whole: { name: 'input', text: JSON.stringify(input.fields, null, 2), language: 'json' } }),
  };
}

/**
 * What the call is about to do, as text fitted to the room (a dialog's): what makes it
 * reach further first, then its title and kind (or the asker's account of it), the input,
 * its other fields, the asker's words, the edits, the files, the grant; and the whole when
 * the text shows only part of what is approved.
 */
export function describeCall(permission: Permission, room: Room = DIALOG_ROOM, titleShown = false): { text: string; whole?: WholeInput } {
  const { call } = permission;
  const { input } = call;
  const reach = input ? reachWords(input.fields) : [];
  const before: string[] = reach.length > 0 ? [aside(`Note: it runs ${reach.join(', ')}.`, room)] : [];
  if (call.says === undefined) {
    const declared = call.declaredKind !== undefined && call.declaredKind !== call.kind ? `; the agent gave the kind ${aside(JSON.stringify(call.declaredKind), room, 1)}` : '';
    // The title once: left out here when the heading shows it whole already.
    if (!titleShown) before.push(aside(call.title ?? '(no title)', room));
    before.push(`Kind: ${call.kind} (${KIND_WORDS[call.kind]}${declared})`);
  }
  const edits = call.edits ?? [];
  const summary = changeSummary(edits);
  if (summary !== undefined) before.push(summary);
  const main = input?.main;
  // The asker's account heads the input; with no input to head, it is a paragraph of its own.
  if (call.says !== undefined && !main) before.push(call.says);

  const fields = fieldsPart(input, room);
  const after: string[] = fields.text !== undefined ? [fields.text] : [];
  const said = new Set(main ? [main.text] : []);
  for (const note of [...(call.notes ?? []), ...(input ? inputWords(input) : [])]) {
    if (note.trim() === '' || said.has(note)) continue;
    said.add(note);
    after.push(aside(note, room));
  }
  for (const { path, edit } of edits) after.push(`Changes ${aside(path, room, 1)} (${editWords(edit.oldText, edit.newText)}):\n${aside(edit.newText, room, 6)}`);
  const files = call.files ?? [];
  if (files.length > 0) after.push(`Files it touches:\n${files.map((f) => aside(f, room, 1)).join('\n')}`);
  const grant = grantWords(permission, room);
  if (grant !== undefined) after.push(grant);

  const heading = call.says ?? (main?.name === 'command' ? 'Command' : 'Input');
  const fitted = fitPermission({ before, heading, ...(main && { input: main }), countLines: call.countLines, after }, room);
  const whole = fields.whole ?? fitted.whole;
  return { text: fitted.text, ...(whole && { whole }) };
}

/** What the lasting allow grants, spelt out (a dialog's buttons hold a short label only). */
function grantWords(permission: Permission, room: Room): string | undefined {
  const lasting = permission.choices.find((c) => c.allows && c.lasts);
  if (!permission.grant || !lasting) return undefined;
  return `"${choiceLabel(lasting)}" also allows, ${permission.grant.until}: ${aside(permission.grant.what, room)}`;
}

/** Asked in a modal, with a refusal the default: the call changes things. */
export function changesThings(call: PermissionCall): boolean {
  return CHANGING_KINDS.has(call.kind);
}

/** What a permission's choices do, for the History. */
function recordOf(permission: Permission, choices: readonly PermissionChoice[]): PermissionRecord {
  return { choices: choices.map(({ id, allows, lasts }) => ({ id, allows, lasts })), dismissal: permission.dismissal ?? 'refuses' };
}

/**
 * The question put to the person, who it shows as asking, what it shows of the call, and
 * what goes with it to the broker (the whole input, what the choices do).
 */
export function permissionQuestion(permission: Permission, room: Room = DIALOG_ROOM): PermissionQuestion {
  const { asker, call } = permission;
  const tool = aside(call.title ?? KIND_WORDS[call.kind], { rows: 1, columns: 120 }, 1);
  const source: RequestSource = {
    server: asker.name,
    ...(asker.agent && { requester: 'agent' as const }),
    approval: true,
    tool,
    ...(asker.session !== undefined && { session: asker.session }),
    // The agent the person runs asks before it acts: their own confirmation, a modal where it changes things.
    ...(changesThings(call) && { destructive: true, personStarted: true }),
  };
  // Without the asker's account, the question says who asks to do what; every prompt heads it with who asks and the tool.
  const intro = call.says === undefined ? `${asker.name} asks for permission to ${KIND_WORDS[call.kind]}.` : undefined;
  const bodyRoom = intro === undefined ? room : { rows: room.rows - textRows(intro, room.columns) - 1, columns: room.columns };
  const described = describeCall(permission, bodyRoom, tool === call.title);
  const choices = distinctChoices(permission.choices);
  const byDefault = defaultChoice(choices);
  const whole = described.whole;
  return {
    source,
    shown: described.text,
    ...(whole && { whole }),
    context: { source, ...(whole && { whole }), permission: recordOf(permission, choices) },
    params: {
      message: intro === undefined ? described.text : `${intro}\n\n${described.text}`,
      requestedSchema: {
        type: 'object',
        properties: {
          [DECISION_FIELD]: {
            type: 'string',
            title: 'Permission',
            oneOf: choices.map((c) => ({ const: c.id, title: choiceLabel(c) })),
            ...(byDefault && { default: byDefault.id }),
          },
        },
        required: [DECISION_FIELD],
      },
    },
  };
}

/** The person's answer: a choice of the asker's, a decline (or an answer that names no choice), or a dismissal. */
export type PermissionAnswer = { readonly how: 'chosen'; readonly choice: PermissionChoice } | { readonly how: 'declined' | 'dismissed' };

export function answerOf(permission: Permission, result: ElicitResult): PermissionAnswer {
  if (result.action === 'cancel') return { how: 'dismissed' };
  if (result.action === 'accept') {
    const chosen = result.content?.[DECISION_FIELD];
    const choice = permission.choices.find((c) => c.id === chosen);
    if (choice) return { how: 'chosen', choice };
  }
  return { how: 'declined' };
}
