/**
 * Claude Code's own permission prompts ("run this command?", "write this file?") translated
 * into our permission (src/elicitation/permission.ts), and the person's answer back into
 * Claude Code's two contracts: the `PermissionRequest` hook's decision and the
 * `--permission-prompt-tool` result. What is Claude Code's is here: its tools' inputs read
 * into words ("wants to write /a/b.txt") and the input approved, its suggestions, its
 * replies. Pure.
 *
 * Shell commands and file changes are destructive: a modal where the UI has one, with
 * Decline, Allow this time and, when Claude Code offers "always allow" suggestions, Allow
 * for this session. Those suggestions go back with `destination: "session"`, so a click in
 * VS Code never writes a rule into anyone's settings file.
 */
import { DIALOG_ROOM, type Room } from '../elicitation/fit-text';
import type { ElicitResult } from '../elicitation/model';
import { answerOf, describeCall, type Permission, type PermissionCall, type PermissionQuestion, permissionQuestion as askedAs } from '../elicitation/permission';
import { type ApprovedInput, aside } from '../elicitation/permission-text';
import { isRecord } from '../base/is-record';

/** A permission update entry as Claude Code sends and reads it (`permission_suggestions`, `updatedPermissions`). */
export interface PermissionUpdate {
  readonly type: string;
  readonly destination?: string;
  readonly [key: string]: unknown;
}

export interface PermissionRequest {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly suggestions: readonly PermissionUpdate[];
}

export type PermissionDecision =
  | { readonly behavior: 'allow'; readonly sessionUpdates?: readonly PermissionUpdate[] }
  | { readonly behavior: 'deny'; readonly message: string }
  /** No decision: Claude Code asks in its own terminal (the hook's empty answer). */
  | { readonly behavior: 'undecided'; readonly reason: string };

export class PermissionInputError extends Error {}

/** Suggestion kinds that can be granted for this session only. */
const SESSION_KINDS = new Set(['addRules', 'addDirectories', 'setMode']);
const AGENT = 'Claude Code';

const ONCE_CHOICE = 'Allow this time';
const SESSION_CHOICE = 'Allow for this session';

function str(input: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** One of Claude Code's tools as our permission's call: what it does in words, its input, and the fields those words show. */
type ToolUse = Omit<PermissionCall, 'title' | 'input'> & { readonly main?: ApprovedInput; readonly said: readonly string[] };

/** Shell commands and file changes are the kinds that change things (a modal); reading, fetching and searching are not. */
function toolUse(toolName: string, input: Readonly<Record<string, unknown>>, room: Room): ToolUse {
  const path = (key: string, none: string): string => aside(str(input, key) ?? none, room, 3);
  switch (toolName) {
    case 'Bash':
    case 'PowerShell':
      return {
        kind: 'execute',
        says: `${AGENT} wants to run this ${toolName === 'Bash' ? 'shell' : 'PowerShell'} command`,
        main: { text: str(input, 'command') ?? '(no command given)', kind: 'shell', name: 'command', language: toolName === 'Bash' ? 'shellscript' : 'powershell' },
        said: ['command'],
      };
    case 'Write':
      return {
        kind: 'edit',
        says: `${AGENT} wants to write ${path('file_path', '(no file given)')}`,
        main: { text: typeof input.content === 'string' ? input.content : '', kind: 'text', name: 'file content', language: 'plaintext' },
        countLines: true,
        said: ['file_path', 'content'],
      };
    case 'Edit':
      return {
        kind: 'edit',
        says: `${AGENT} wants to edit ${path('file_path', '(no file given)')}${input.replace_all === true ? ', replacing every occurrence' : ''}`,
        main: { text: editText(input), kind: 'text', name: 'edit', language: 'plaintext' },
        said: ['file_path', 'old_string', 'new_string', 'replace_all'],
      };
    case 'MultiEdit': {
      const edits = Array.isArray(input.edits) ? input.edits.filter(isRecord) : [];
      const text = edits.map((edit, i) => `Edit ${i + 1} of ${edits.length}${edit.replace_all === true ? ', every occurrence' : ''}:\n${editText(edit)}`).join('\n\n');
      return {
        kind: 'edit',
        says: `${AGENT} wants to make ${edits.length} edit${edits.length === 1 ? '' : 's'} to ${path('file_path', '(no file given)')}`,
        main: { text, kind: 'text', name: 'edits', language: 'plaintext' },
        said: ['file_path', 'edits'],
      };
    }
    case 'NotebookEdit': {
      const where = [str(input, 'cell_id') && `cell ${str(input, 'cell_id')}`, str(input, 'edit_mode')].filter(Boolean).join(', ');
      return {
        kind: 'edit',
        says: `${AGENT} wants to edit the notebook ${path('notebook_path', '(no notebook given)')}${where ? ` (${aside(where, room, 1)})` : ''}`,
        main: { text: typeof input.new_source === 'string' ? input.new_source : '', kind: 'text', name: 'cell source', language: 'plaintext' },
        said: ['notebook_path', 'cell_id', 'edit_mode', 'new_source'],
      };
    }
    case 'Read':
      return { kind: 'read', says: `${AGENT} wants to read ${path('file_path', '(no file given)')}.`, said: ['file_path'] };
    case 'WebFetch': {
      const prompt = str(input, 'prompt');
      return { kind: 'fetch', says: `${AGENT} wants to fetch ${path('url', '(no address given)')}`, ...(prompt && { notes: [`To: ${prompt}`] }), said: ['url', 'prompt'] };
    }
    case 'WebSearch':
      return { kind: 'search', says: `${AGENT} wants to search the web for: ${aside(str(input, 'query') ?? '', room)}`, said: ['query'] };
    default: {
      const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
      const what = mcp ? `the tool ${mcp[2]} of the MCP server ${mcp[1]}` : toolName;
      return {
        kind: 'other',
        says: `${AGENT} wants to use ${aside(what, room, 2)} with`,
        main: { text: JSON.stringify(input, null, 2), kind: 'text', name: 'input', language: 'json' },
        said: Object.keys(input),
      };
    }
  }
}

function editText(edit: Readonly<Record<string, unknown>>): string {
  return `Replace:\n${String(edit.old_string ?? '')}\n\nWith:\n${String(edit.new_string ?? '')}`;
}

/**
 * The request as our permission: the tool use in words with its input, Allow this time
 * and, where Claude Code offers a grant, Allow for this session (what it grants spelt
 * out). `dismissed` is what a dismissal answers in the contract it came by.
 */
export function toPermission(request: PermissionRequest, room: Room = DIALOG_ROOM, dismissed: 'undecided' | 'deny' = 'undecided'): Permission {
  const { main, said, ...use } = toolUse(request.toolName, request.input, room);
  const grants = sessionUpdates(request.suggestions);
  return {
    asker: { name: AGENT },
    call: { ...use, title: request.toolName, input: { ...(main && { main }), fields: request.input, said } },
    choices: [{ id: 'once', name: ONCE_CHOICE, allows: true, lasts: false }, ...(grants.length > 0 ? [{ id: 'session', name: SESSION_CHOICE, allows: true, lasts: true }] : [])],
    ...(grants.length > 0 && { grant: { what: grants.map(describeSuggestion).join('; '), until: 'until Claude Code exits' } }),
    dismissal: dismissed === 'deny' ? 'refuses' : 'undecided',
  };
}

/** What the tool is about to do, in words, with its input (the command, the file) as a dialog shows it. */
export function describeToolUse(toolName: string, input: Readonly<Record<string, unknown>>, room: Room = DIALOG_ROOM): string {
  return describeCall(toPermission({ toolName, input, suggestions: [] }, room), room).text;
}

/** A short name for one suggestion, for the "allow for this session" option. */
function describeSuggestion(update: PermissionUpdate): string | undefined {
  switch (update.type) {
    case 'addRules': {
      if (update.behavior !== undefined && update.behavior !== 'allow') return undefined;
      const rules = Array.isArray(update.rules) ? update.rules.filter(isRecord) : [];
      const names = rules.map((r) => (typeof r.ruleContent === 'string' ? `${String(r.toolName)}(${r.ruleContent})` : String(r.toolName)));
      return names.length > 0 ? names.join(', ') : undefined;
    }
    case 'addDirectories': {
      const dirs = Array.isArray(update.directories) ? update.directories.filter((d): d is string => typeof d === 'string') : [];
      return dirs.length > 0 ? `access to ${dirs.join(', ')}` : undefined;
    }
    case 'setMode':
      return update.mode === 'acceptEdits' ? 'accept every edit' : typeof update.mode === 'string' && update.mode !== 'bypassPermissions' ? `mode ${update.mode}` : undefined;
    default:
      return undefined;
  }
}

/** The suggestions the person may grant for this session, rewritten to stay in memory. */
export function sessionUpdates(suggestions: readonly PermissionUpdate[]): PermissionUpdate[] {
  return suggestions.filter((s) => SESSION_KINDS.has(s.type) && describeSuggestion(s) !== undefined).map((s) => ({ ...s, destination: 'session' }));
}

/**
 * The question put to the person, who it shows as asking, and what goes with it to the
 * broker. Both ways Claude Code asks (the hook, the prompt tool) come here, so a permission
 * reads the same whichever way it arrives: Allow this time, Allow for this session where
 * Claude Code offers a grant, or Decline.
 */
export function permissionQuestion(request: PermissionRequest, room: Room = DIALOG_ROOM, dismissed: 'undecided' | 'deny' = 'undecided'): PermissionQuestion {
  return askedAs(toPermission(request, room, dismissed), room);
}

/** The person's answer as a decision. `dismissed` says what a cancel means for the contract. */
export function decide(request: PermissionRequest, result: ElicitResult, dismissed: 'undecided' | 'deny'): PermissionDecision {
  if (result.action === 'accept') {
    const answer = answerOf(toPermission(request), result);
    const updates = answer.how === 'chosen' && answer.choice.lasts ? sessionUpdates(request.suggestions) : [];
    return { behavior: 'allow', ...(updates.length > 0 && { sessionUpdates: updates }) };
  }
  if (result.action === 'decline') return { behavior: 'deny', message: 'The person denied this in VS Code (Elicitation Host).' };
  return dismissed === 'deny'
    ? { behavior: 'deny', message: 'The person dismissed the question in VS Code without answering.' }
    : { behavior: 'undecided', reason: 'the question was dismissed' };
}

function readSuggestions(value: unknown, field: string): PermissionUpdate[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new PermissionInputError(`${field} must be an array`);
  return value.filter((s): s is PermissionUpdate => isRecord(s) && typeof s.type === 'string');
}

/** Reads a `PermissionRequest` hook body (as Claude Code POSTs it), naming the field at fault. */
export function parseHookBody(body: unknown): PermissionRequest {
  if (!isRecord(body)) throw new PermissionInputError('the body must be a JSON object');
  if (body.hook_event_name !== undefined && body.hook_event_name !== 'PermissionRequest') {
    throw new PermissionInputError(`hook_event_name must be "PermissionRequest", not ${JSON.stringify(body.hook_event_name)}`);
  }
  if (typeof body.tool_name !== 'string' || body.tool_name === '') throw new PermissionInputError('tool_name must be a non-empty string');
  if (!isRecord(body.tool_input)) throw new PermissionInputError('tool_input must be an object');
  return { toolName: body.tool_name, input: body.tool_input, suggestions: readSuggestions(body.permission_suggestions, 'permission_suggestions') };
}

/** The hook's answer body; undefined for no decision (an empty 2xx lets Claude Code ask itself). */
export function hookResponse(decision: PermissionDecision): Record<string, unknown> | undefined {
  if (decision.behavior === 'undecided') return undefined;
  const body =
    decision.behavior === 'allow'
      ? { behavior: 'allow', ...(decision.sessionUpdates && { updatedPermissions: decision.sessionUpdates }) }
      : { behavior: 'deny', message: decision.message };
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: body } };
}

/** Reads the `--permission-prompt-tool` arguments: `{tool_name, input, tool_use_id?}`. */
export function parsePromptToolInput(args: Readonly<Record<string, unknown>>): PermissionRequest {
  if (typeof args.tool_name !== 'string' || args.tool_name === '') throw new PermissionInputError('tool_name must be a non-empty string');
  if (!isRecord(args.input)) throw new PermissionInputError('input must be an object');
  return { toolName: args.tool_name, input: args.input, suggestions: readSuggestions(args.permission_suggestions, 'permission_suggestions') };
}

/** The prompt tool's text result: the JSON Claude Code parses. A dismissed question denies (there is no one else to ask). */
export function promptToolText(request: PermissionRequest, decision: PermissionDecision): string {
  if (decision.behavior === 'allow') {
    return JSON.stringify({ behavior: 'allow', updatedInput: request.input, ...(decision.sessionUpdates && { updatedPermissions: decision.sessionUpdates }) });
  }
  return JSON.stringify({ behavior: 'deny', message: decision.behavior === 'deny' ? decision.message : `No answer: ${decision.reason}.` });
}
