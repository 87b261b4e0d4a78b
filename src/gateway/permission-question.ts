/**
 * Claude Code's own permission prompts ("run this command?", "write this file?") as one
 * question to the person, and the person's answer in Claude Code's two contracts: the
 * `PermissionRequest` hook's decision and the `--permission-prompt-tool` result. Pure.
 *
 * Shell commands and file changes are destructive: a modal where the UI has one, with
 * Decline, Allow this time and, when Claude Code offers "always allow" suggestions, Allow
 * for this session. Those suggestions go back with `destination: "session"`, so a click in
 * VS Code never writes a rule into anyone's settings file.
 */
import type { FormParams } from '../elicitation/broker';
import type { ElicitResult } from '../elicitation/model';
import type { RequestSource } from '../elicitation/request';
import { isRecord } from '../elicitation/is-record';

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

/** Tools whose use changes files or runs programs: asked as destructive. */
const DESTRUCTIVE_TOOLS = new Set(['Bash', 'PowerShell', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
/** Suggestion kinds that can be granted for this session only. */
const SESSION_KINDS = new Set(['addRules', 'addDirectories', 'setMode']);
/** How much of a command, file content or input is shown; the rest is elided. */
const SHOWN_CHARS = 1500;
const AGENT = 'Claude Code';

export const DECISION_FIELD = 'decision';
const SESSION_CHOICE = 'Allow for this session';

/** How long text (a command, a file's content) is shown in a permission question; ACP's permissions (src/acp) show theirs the same way. */
export function clip(text: string, max = SHOWN_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function str(input: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = input[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/** What the tool is about to do, in words, with its input (the command, the file). */
export function describeToolUse(toolName: string, input: Readonly<Record<string, unknown>>): string {
  const description = str(input, 'description');
  const why = description ? `\n\n${clip(description, 300)}` : '';
  switch (toolName) {
    case 'Bash':
    case 'PowerShell': {
      const command = str(input, 'command') ?? '(no command given)';
      return `${AGENT} wants to run this ${toolName === 'Bash' ? 'shell' : 'PowerShell'} command:\n\n${clip(command)}${why}`;
    }
    case 'Write': {
      const content = typeof input.content === 'string' ? input.content : '';
      return `${AGENT} wants to write ${str(input, 'file_path') ?? '(no file given)'} (${lineCount(content)} lines):\n\n${clip(content)}`;
    }
    case 'Edit':
      return `${AGENT} wants to edit ${str(input, 'file_path') ?? '(no file given)'}${input.replace_all === true ? ', replacing every occurrence' : ''}.\n\nReplace:\n${clip(String(input.old_string ?? ''), 700)}\n\nWith:\n${clip(String(input.new_string ?? ''), 700)}`;
    case 'MultiEdit':
      return `${AGENT} wants to make ${Array.isArray(input.edits) ? input.edits.length : 'several'} edits to ${str(input, 'file_path') ?? '(no file given)'}.`;
    case 'NotebookEdit':
      return `${AGENT} wants to edit the notebook ${str(input, 'notebook_path') ?? '(no notebook given)'}.`;
    case 'Read':
      return `${AGENT} wants to read ${str(input, 'file_path') ?? '(no file given)'}.`;
    case 'WebFetch':
      return `${AGENT} wants to fetch ${str(input, 'url') ?? '(no address given)'}${str(input, 'prompt') ? `\n\nTo: ${clip(str(input, 'prompt')!, 300)}` : ''}`;
    case 'WebSearch':
      return `${AGENT} wants to search the web for: ${clip(str(input, 'query') ?? '', 300)}`;
    default: {
      const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
      const what = mcp ? `the tool ${mcp[2]} of the MCP server ${mcp[1]}` : toolName;
      return `${AGENT} wants to use ${what} with:\n\n${clip(JSON.stringify(input, null, 2))}`;
    }
  }
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

/** The question put to the person, and who it shows as asking. */
export function permissionQuestion(request: PermissionRequest): { params: FormParams; source: RequestSource } {
  // The agent the person is running asks before it runs a program or changes a file: its own
  // confirmation, not a server's, so a yes/no takes the modal a call the person started gets.
  const destructive = DESTRUCTIVE_TOOLS.has(request.toolName);
  const source: RequestSource = { server: AGENT, tool: request.toolName, ...(destructive && { destructive: true, personStarted: true }) };
  const message = describeToolUse(request.toolName, request.input);
  const grants = sessionUpdates(request.suggestions);
  if (grants.length === 0) {
    // A yes/no question: a confirm, modal for destructive tools.
    return { source, params: { message, requestedSchema: { type: 'object', properties: {} } } };
  }
  // The grant is spelt out in the message: a dialog's buttons hold a short label only.
  const summary = clip(grants.map(describeSuggestion).join('; '), 300);
  return {
    source,
    params: {
      message: `${message}\n\n"${SESSION_CHOICE}" also allows, until Claude Code exits: ${summary}`,
      requestedSchema: {
        type: 'object',
        properties: {
          [DECISION_FIELD]: {
            type: 'string',
            title: 'Allow',
            oneOf: [
              { const: 'once', title: 'Allow this time' },
              { const: 'session', title: SESSION_CHOICE },
            ],
            default: 'once',
          },
        },
        required: [DECISION_FIELD],
      },
    },
  };
}

/** The person's answer as a decision. `dismissed` says what a cancel means for the contract. */
export function decide(request: PermissionRequest, result: ElicitResult, dismissed: 'undecided' | 'deny'): PermissionDecision {
  if (result.action === 'accept') {
    const updates = result.content?.[DECISION_FIELD] === 'session' ? sessionUpdates(request.suggestions) : [];
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
