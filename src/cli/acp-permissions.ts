/**
 * `acp --permissions`: answers an agent's permissions by rule instead of asking. `allow`
 * takes the agent's one-time allow (else its always allow), `deny` its one-time reject
 * (else its always reject, else `cancelled`); a JSON file maps a tool call's title, or
 * else its kind (`execute` for any call whose input carries a command), or else "*", to the
 * option kind to choose. A rule whose kind the agent
 * does not offer denies; a permission no rule covers is asked.
 */
import type { PermissionOptionKind, RequestPermissionOutcome, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { toolKind } from '../acp/permission';
import { isRecord } from '../base/is-record';

const KINDS: readonly PermissionOptionKind[] = ['allow_once', 'allow_always', 'reject_once', 'reject_always'];

export type PermissionPolicy = (request: RequestPermissionRequest) => RequestPermissionOutcome | undefined;

function pick(request: RequestPermissionRequest, kinds: readonly PermissionOptionKind[]): RequestPermissionOutcome | undefined {
  for (const kind of kinds) {
    const option = request.options.find((o) => o.kind === kind);
    if (option) return { outcome: 'selected', optionId: option.optionId };
  }
  return undefined;
}

function deny(request: RequestPermissionRequest): RequestPermissionOutcome {
  return pick(request, ['reject_once', 'reject_always']) ?? { outcome: 'cancelled' };
}

/** The rules of a permissions file: title or kind (or "*") → option kind. Throws with the entry at fault. */
export function readRules(data: unknown): ReadonlyMap<string, PermissionOptionKind> {
  if (!isRecord(data)) throw new Error('the permissions file must hold a JSON object mapping tool kinds or titles to option kinds');
  const rules = new Map<string, PermissionOptionKind>();
  for (const [key, value] of Object.entries(data)) {
    if (!KINDS.includes(value as PermissionOptionKind)) throw new Error(`"${key}" maps to ${JSON.stringify(value)}, not one of ${KINDS.join(', ')}`);
    rules.set(key, value as PermissionOptionKind);
  }
  return rules;
}

export function permissionPolicy(spec: 'allow' | 'deny' | ReadonlyMap<string, PermissionOptionKind>): PermissionPolicy {
  if (spec === 'allow') return (request) => pick(request, ['allow_once', 'allow_always']) ?? deny(request);
  if (spec === 'deny') return deny;
  return (request) => {
    const { title } = request.toolCall;
    // A call whose input carries a command runs something, whatever kind the agent gave it: a rule for "read" does not cover it.
    const kind = toolKind(request.toolCall);
    const wanted = (typeof title === 'string' ? spec.get(title) : undefined) ?? spec.get(kind) ?? spec.get('*');
    if (wanted === undefined) return undefined;
    return pick(request, [wanted]) ?? deny(request);
  };
}
