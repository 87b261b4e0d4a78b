/**
 * A host's tool call waiting for a confirmation ("may I run `rm -rf build`?") translated
 * into our permission (src/elicitation/permission.ts: the command whole, fitted to the
 * dialog with the whole beside it, every other field of the input, a modal when it runs
 * something or changes files, a refusal the default), and the answer back into AHP's
 * `toolCallConfirmed`. The host's options are the choices: `approve` allows, `deny`
 * refuses, and one whose id or label says it lasts ("Allow in this Session") lasts; a host
 * that offers none gets Allow and Deny. Declining or dismissing answers the first
 * one-time deny.
 */
import { isRecord } from '../base/is-record';
import type { ElicitResult } from '../elicitation/model';
import { answerOf, callKind, type CallKind, type Permission, type PermissionQuestion, permissionQuestion } from '../elicitation/permission';
import { type PermissionChoice, refusal } from '../elicitation/permission-choices';
import { type CallInput, readCallInput } from '../elicitation/permission-input';
import type { WireConfirmationOption, WireToolCall } from './wire/tool-call';

/** When the host offers no options of its own. */
const PLAIN_OPTIONS: readonly WireConfirmationOption[] = [
  { id: 'approve', label: 'Allow', kind: 'approve' },
  { id: 'deny', label: 'Deny', kind: 'deny' },
];

const SHELL = /^(bash|shell|powershell|sh|zsh|run_in_terminal|terminal|execute|exec)$/i;

function isShell(call: WireToolCall): boolean {
  return call.toolKind === 'terminal' || SHELL.test(call.toolName ?? '');
}

/** The tool's input as the permission shows it: a command for a shell, else the arguments. */
function rawInput(call: WireToolCall): unknown {
  const input = call.toolInput;
  if (input === undefined || input.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed)) return parsed;
  // 1.139.1 sends a shell tool's input as the command line itself.
  return isShell(call) ? { command: input } : { input };
}

function kindOf(call: WireToolCall, input: CallInput | undefined): CallKind {
  if (isShell(call)) return 'execute';
  const name = call.toolName ?? '';
  const guessed = /edit|write|create_file|apply_patch|notebook/i.test(name)
    ? 'edit'
    : /delete|remove/i.test(name)
      ? 'delete'
      : /fetch|web/i.test(name)
        ? 'fetch'
        : /read|view|grep|glob|search|list/i.test(name)
          ? 'read'
          : 'other';
  // A call whose input carries a command runs something, whatever its name.
  return callKind(guessed, input);
}

/** An option whose id or label says it outlasts this call ("allow-session", "Allow in this Session", "Always allow"). */
const LASTS = /\b(?:session|always|never)\b/i;

function choiceOf(option: WireConfirmationOption): PermissionChoice {
  return { id: option.id, name: option.label, allows: option.kind === 'approve', lasts: LASTS.test(option.id.replace(/[-_]/g, ' ')) || LASTS.test(option.label) };
}

export interface ToolQuestion extends PermissionQuestion {
  /** The person's answer as AHP's confirmation: approved or not, and the host's option chosen (when it offered any). */
  decide(result: ElicitResult): { readonly approved: boolean; readonly selectedOptionId?: string };
}

/** `agent` is who asks as shown ("Claude on my-laptop"), `session` the session's title. */
export function toolQuestion(asker: { readonly agent: string; readonly session?: string }, call: WireToolCall): ToolQuestion {
  const offered = call.options ?? PLAIN_OPTIONS;
  const input = readCallInput(rawInput(call));
  const title = call.displayName ?? call.toolName ?? call.confirmationTitle ?? 'a tool';
  // The host's words about the call, each once (hosts often repeat the title as the confirmation's).
  const notes = [...new Set([call.confirmationTitle, call.invocationMessage])].filter((t): t is string => t !== undefined && t.trim() !== '' && t !== title);
  const permission: Permission = {
    asker: { name: asker.agent, agent: true, ...(asker.session !== undefined && { session: asker.session }) },
    call: { title, kind: kindOf(call, input), ...(input && { input }), notes },
    choices: offered.map(choiceOf),
  };
  return {
    ...permissionQuestion(permission),
    decide(result) {
      const answer = answerOf(permission, result);
      const chosen = answer.how === 'chosen' ? answer.choice : refusal(permission.choices);
      return { approved: chosen?.allows === true, ...(call.options && chosen && { selectedOptionId: chosen.id }) };
    },
  };
}
