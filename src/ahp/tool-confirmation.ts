/**
 * A host's tool call waiting for a confirmation ("may I run `rm -rf build`?"), asked the way
 * an ACP agent's permission is (src/acp/permission.ts: the command whole, fitted to the
 * dialog with the whole beside it, a modal when it runs something or changes files, the
 * reject option the default), and the answer as AHP's `toolCallConfirmed`. This file is the
 * seam to that one way of asking permissions: the AHP tool call becomes the ACP shape here,
 * and nowhere else, so the permission code can move without the inbox knowing.
 */
import type { PermissionOptionKind, RequestPermissionRequest, ToolKind } from '@agentclientprotocol/sdk';
import { permissionOutcome, permissionQuestion } from '../acp/permission';
import type { FormParams } from '../elicitation/broker';
import { isRecord } from '../base/is-record';
import type { ElicitResult } from '../elicitation/model';
import type { RequestSource, WholeInput } from '../elicitation/request';
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

function kindOf(call: WireToolCall, input: unknown): ToolKind {
  if (isShell(call) || (isRecord(input) && typeof input.command === 'string')) return 'execute';
  const name = call.toolName ?? '';
  if (/edit|write|create_file|apply_patch|notebook/i.test(name)) return 'edit';
  if (/delete|remove/i.test(name)) return 'delete';
  if (/fetch|web/i.test(name)) return 'fetch';
  if (/read|view|grep|glob|search|list/i.test(name)) return 'read';
  return 'other';
}

export interface ToolQuestion {
  readonly params: FormParams;
  readonly source: RequestSource;
  readonly whole?: WholeInput;
  /** The person's answer as AHP's confirmation: approved or not, and the host's option chosen (when it offered any). */
  decide(result: ElicitResult): { readonly approved: boolean; readonly selectedOptionId?: string };
}

/** `agent` is who asks as shown ("Claude on my-laptop"), `session` the session's title. */
export function toolQuestion(asker: { readonly agent: string; readonly session?: string }, call: WireToolCall): ToolQuestion {
  const offered = call.options ?? PLAIN_OPTIONS;
  const input = rawInput(call);
  const title = call.displayName ?? call.toolName ?? call.confirmationTitle ?? 'a tool';
  // The host's words about the call, each once (hosts often repeat the title as the confirmation's).
  const words = [...new Set([call.confirmationTitle, call.invocationMessage])].filter((t): t is string => t !== undefined && t.trim() !== '' && t !== title);
  const request: RequestPermissionRequest = {
    sessionId: '',
    toolCall: {
      toolCallId: call.toolCallId,
      title,
      kind: kindOf(call, input),
      ...(input !== undefined && { rawInput: input }),
      content: words.map((text) => ({ type: 'content' as const, content: { type: 'text' as const, text } })),
    },
    options: offered.map((o) => ({ optionId: o.id, name: o.label, kind: (o.kind === 'approve' ? 'allow_once' : 'reject_once') satisfies PermissionOptionKind })),
  };
  const { params, source, whole } = permissionQuestion(asker, request);
  return {
    params,
    source,
    ...(whole && { whole }),
    decide(result) {
      const outcome = permissionOutcome(request, result, false);
      const chosen = outcome.outcome === 'selected' ? offered.find((o) => o.id === outcome.optionId) : undefined;
      const approved = chosen?.kind === 'approve';
      return { approved, ...(call.options && chosen && { selectedOptionId: chosen.id }) };
    },
  };
}
