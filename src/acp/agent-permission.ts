/**
 * An agent's `session/request_permission`, answered for one session: what the session's
 * updates said of the tool call fills what the request leaves out (an empty input is no
 * input), the runner's rules answer first, the rest is asked through the broker (an edit's
 * diff offered where its files are inside the session's folders), and the session is told
 * what was chosen and by whom. Kept apart from the client, which only routes the request.
 */
import type { RequestPermissionOutcome, RequestPermissionRequest, RequestPermissionResponse, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { FormParams } from '../elicitation/broker';
import type { PermissionContext } from '../elicitation/permission';
import { sourceLabel } from '../elicitation/request';
import { errorMessage } from '../base/error-message';
import type { AgentSession } from './agent-session';
import { optionLabel, permissionOutcome, permissionQuestion, toolKind } from './permission';
import { checkChanges } from './proposed-changes';
import type { AgentClientPorts } from './ports';
import { saysInput } from './session-events';

export async function answerPermission(agent: string, host: AgentClientPorts, session: AgentSession, request: RequestPermissionRequest, requestSignal: AbortSignal): Promise<RequestPermissionResponse> {
  const turn = session.currentTurn();
  // What the session's updates said of the tool call fills what the request leaves out.
  const known = session.updates.toolCall(request.toolCall.toolCallId);
  const toolCall: ToolCallUpdate = known
    ? {
        ...request.toolCall,
        title: request.toolCall.title ?? known.title,
        kind: request.toolCall.kind ?? (known.kind as ToolKind),
        // An empty input is no input: the command the session already knows is what runs.
        rawInput: saysInput(request.toolCall.rawInput) ? request.toolCall.rawInput : known.rawInput,
        locations: request.toolCall.locations ?? [...known.locations],
      }
    : request.toolCall;
  const { params, source, shown, context } = permissionQuestion({ agent, session: session.label }, { ...request, toolCall });
  const merged = { ...request, toolCall };
  const signal = AbortSignal.any([requestSignal, session.endSignal, ...(turn ? [turn.signal] : [])]);
  // The runner's rules answer first; what they do not cover is asked.
  const ruled = host.permissionPolicy?.(merged);
  const answer = ruled ?? (await askPermission(host, merged, params, context, signal, turn, session.directories));
  const chosen = answer.outcome === 'selected' ? request.options.find((o) => o.optionId === answer.optionId) : undefined;
  session.tell({
    type: 'permission',
    asker: sourceLabel(source),
    toolCall: source.tool ?? '',
    toolCallId: request.toolCall.toolCallId,
    kind: toolKind(toolCall),
    answer: chosen ? optionLabel(chosen) : 'cancelled',
    ...(chosen && { optionKind: chosen.kind }),
    by: ruled ? 'rule' : 'person',
    shown,
  });
  return { outcome: answer };
}

async function askPermission(host: AgentClientPorts, request: RequestPermissionRequest, params: FormParams, context: PermissionContext, signal: AbortSignal, turn: AbortController | undefined, folders: readonly string[]): Promise<RequestPermissionOutcome> {
  try {
    // An edit's files, checked as a write would be: only those inside the session's folders can be shown as a diff.
    const changes = await checkChanges(request.toolCall.content, folders);
    return permissionOutcome(request, await host.broker.elicit(params, { ...context, signal, applyDefaults: true, ...(changes.length > 0 && { changes }) }), turn?.signal.aborted === true);
  } catch (error) {
    // Too many open questions, or a prompt that failed: nobody allowed it.
    host.log.warn(`${sourceLabel(context.source)}: the permission could not be asked: ${errorMessage(error)}`);
    return permissionOutcome(request, { action: 'decline' }, turn?.signal.aborted === true);
  }
}
