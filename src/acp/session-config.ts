/**
 * Session input options: NOT part of ACP v1. An unmerged proposal (the "Session Input
 * Options" RFD, in shared/seeds/001_*) lets an agent advertise, in its `initialize`
 * response, a form for `session/new` in the elicitation schema subset
 * (`configSchema: {"session/new": {...}}`), every field optional, and take the values in
 * `session/new` (`config`). We read it when an agent sends one and ask it like any other
 * form; an agent that does not know the proposal never sees `config`.
 */
import type { Broker } from '../elicitation/broker';
import type { Content } from '../elicitation/model';
import { isRecord } from '../base/is-record';
import { withoutNulls } from './agent-questions';

/** The proposal's form for `session/new`, when the `initialize` response carries one. */
export function sessionConfigSchema(initializeResponse: unknown): Record<string, unknown> | undefined {
  if (!isRecord(initializeResponse) || !isRecord(initializeResponse.configSchema)) return undefined;
  const schema = initializeResponse.configSchema['session/new'];
  return isRecord(schema) ? (withoutNulls(schema) as Record<string, unknown>) : undefined;
}

/**
 * Asks the person for the new session's options. Undefined when they decline or dismiss it:
 * the session starts with the agent's defaults (the proposal makes every option optional).
 */
export async function askSessionConfig(broker: Broker, agent: string, schema: Record<string, unknown>, signal: AbortSignal, applyDefaults: boolean): Promise<Content | undefined> {
  const result = await broker.elicit(
    { mode: 'form', message: `${agent}: options for the new session (all optional)`, requestedSchema: schema },
    { source: { server: agent, requester: 'agent', tool: 'new session' }, signal, applyDefaults, asForm: true },
  );
  return result.action === 'accept' ? (result.content ?? {}) : undefined;
}
