/**
 * Puts one Claude Code permission request to the person through the broker (the same
 * prompts as every other question) and turns the answer into a decision. Shared by the
 * `PermissionRequest` hook and the `--permission-prompt-tool` tool.
 */
import type { Broker } from '../elicitation/broker';
import { decide, type PermissionDecision, permissionQuestion, type PermissionRequest } from './permission-question';
import { errorMessage } from '../base/error-message';

export type PermissionAsker = (request: PermissionRequest, signal: AbortSignal, dismissed: 'undecided' | 'deny') => Promise<PermissionDecision>;

export function brokerPermissionAsker(broker: Broker): PermissionAsker {
  return async (request, signal, dismissed) => {
    const { params, context } = permissionQuestion(request, undefined, dismissed);
    try {
      const result = await broker.elicit(params, { ...context, signal, applyDefaults: true });
      return decide(request, result, dismissed);
    } catch (error) {
      // Too many open questions, or a prompt that failed: nobody decided.
      const reason = errorMessage(error);
      return dismissed === 'deny' ? { behavior: 'deny', message: `No answer: ${reason}` } : { behavior: 'undecided', reason };
    }
  };
}
