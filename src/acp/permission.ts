/**
 * An ACP agent's `session/request_permission` translated into our permission
 * (src/elicitation/permission.ts) and the person's answer back into ACP's outcome: the
 * tool call's title, kind, raw input, text content, diffs and locations; each option as
 * a choice (`allow_*` allows, `*_always` lasts; an option of a kind ACP does not define is
 * left out: nobody could say what it does). Declining or dismissing answers the agent's
 * first `reject_once` (a lasting reject is the person's own choice; none: `cancelled`);
 * only a cancelled turn answers `cancelled`, as ACP asks. Pure.
 */
import type { PermissionOption, PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { DIALOG_ROOM, type Room } from '../elicitation/fit-text';
import type { ElicitResult } from '../elicitation/model';
import { answerOf, callKind, type CallKind, describeCall, type Permission, type PermissionAsker, type PermissionQuestion, permissionQuestion as askedAs } from '../elicitation/permission';
import { choiceLabel, type PermissionChoice, refusal } from '../elicitation/permission-choices';
import { readCallInput } from '../elicitation/permission-input';
import type { WholeInput } from '../elicitation/request';
import { diffsOf } from './proposed-changes';

/** Who asks: the configured agent, in which session (by title). */
export interface AgentAsker {
  readonly agent: string;
  readonly session?: string;
}

const KINDS: Readonly<Record<PermissionOptionKind, Pick<PermissionChoice, 'allows' | 'lasts'>>> = {
  allow_once: { allows: true, lasts: false },
  allow_always: { allows: true, lasts: true },
  reject_once: { allows: false, lasts: false },
  reject_always: { allows: false, lasts: true },
};

/** The option as a choice; undefined for a kind ACP does not define, or an option without an id. */
function choiceOf(option: PermissionOption): PermissionChoice | undefined {
  const does = typeof option.kind === 'string' && Object.hasOwn(KINDS, option.kind) ? KINDS[option.kind] : undefined;
  if (!does || typeof option.optionId !== 'string') return undefined;
  return { id: option.optionId, ...(typeof option.name === 'string' && { name: option.name }), ...does };
}

/** The files the tool call names: its locations and the paths of its diffs, once each. */
export function filesOf(toolCall: ToolCallUpdate): string[] {
  const files = new Set<string>();
  for (const location of toolCall.locations ?? []) {
    if (typeof location?.path === 'string') files.add(typeof location.line === 'number' ? `${location.path}:${location.line}` : location.path);
  }
  for (const item of toolCall.content ?? []) if (item?.type === 'diff' && typeof item.path === 'string') files.add(item.path);
  return [...files];
}

/** The tool call as our permission's call. */
function callOf(toolCall: ToolCallUpdate): Permission['call'] {
  const input = readCallInput(toolCall.rawInput);
  const kind = callKind(toolCall.kind, input);
  const notes = (toolCall.content ?? []).flatMap((item) => (item?.type === 'content' && item.content?.type === 'text' && typeof item.content.text === 'string' ? [item.content.text] : []));
  return {
    ...(typeof toolCall.title === 'string' && { title: toolCall.title }),
    kind,
    ...(typeof toolCall.kind === 'string' && toolCall.kind !== kind && { declaredKind: toolCall.kind }),
    ...(input && { input }),
    notes,
    edits: diffsOf(toolCall.content),
    files: filesOf(toolCall),
  };
}

/** The request as our permission. */
export function toPermission(asker: AgentAsker, request: RequestPermissionRequest): Permission {
  return {
    asker: { name: asker.agent, agent: true, ...(asker.session !== undefined && { session: asker.session }) } satisfies PermissionAsker,
    call: callOf(request.toolCall),
    choices: request.options.flatMap((o) => choiceOf(o) ?? []),
  };
}

/** The kind the person is asked about: the agent's, except that a call whose input carries a command runs something. */
export function toolKind(toolCall: ToolCallUpdate): CallKind {
  return callKind(toolCall.kind, readCallInput(toolCall.rawInput));
}

/** What the tool call is about to do, as text fitted to the room (a dialog's), and the whole input when the text shows only part. */
export function describeToolCall(toolCall: ToolCallUpdate, room: Room = DIALOG_ROOM, titleShown = false): { text: string; whole?: WholeInput } {
  return describeCall({ asker: { name: 'agent' }, call: callOf(toolCall), choices: [] }, room, titleShown);
}

/** The option's name as the person reads it (permission-choices.ts): the agent's, corrected where it hides what the option does. */
export function optionLabel(option: PermissionOption): string {
  const choice = choiceOf(option);
  return choice ? choiceLabel(choice) : typeof option.name === 'string' && option.name.trim() !== '' ? option.name : String(option.optionId);
}

/** The question put to the person, who it shows as asking, what it shows of the call, and what goes with it to the broker. */
export function permissionQuestion(asker: AgentAsker, request: RequestPermissionRequest, room: Room = DIALOG_ROOM): PermissionQuestion {
  return askedAs(toPermission(asker, request), room);
}

/**
 * The person's answer as ACP's outcome. A cancelled turn answers `cancelled`; a decline or
 * a dismissal answers the agent's one-time reject (or `cancelled` when it offers none).
 */
export function permissionOutcome(request: RequestPermissionRequest, result: ElicitResult, turnCancelled: boolean): RequestPermissionOutcome {
  if (turnCancelled) return { outcome: 'cancelled' };
  const permission = toPermission({ agent: '' }, request);
  const answer = answerOf(permission, result);
  const chosen = answer.how === 'chosen' ? answer.choice : refusal(permission.choices);
  return chosen ? { outcome: 'selected', optionId: chosen.id } : { outcome: 'cancelled' };
}
