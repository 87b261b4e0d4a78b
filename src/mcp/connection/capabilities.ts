/**
 * What this client declares it can do, and when.
 *
 * Elicitation (form, and URL when the setting allows) and roots: always.
 *
 * Sampling, decided per era:
 * - MCP 2026-07-28 sends the client's capabilities with every request
 *   (`_meta["io.modelcontextprotocol/clientCapabilities"]`), so each call declares
 *   `sampling` exactly when its caller can answer it (it gave a sampler: an agent whose
 *   own client offers sampling). The server never asks a call that cannot answer; if it
 *   does anyway, the call ends with -32021 as the revision says.
 * - The 2025 eras declare capabilities once, at `initialize`, for every call the
 *   connection will make. Only a host that relays sampling (the gateway, `relaySampling`)
 *   declares it: servers that check the capability would otherwise never ask, not even an
 *   agent that could answer. Calls of such a connection without a sampler (Run Tool, the
 *   runner, agents that cannot sample) get a JSON-RPC error saying why. A host that cannot
 *   relay declares nothing, so servers take their no-sampling path, as before.
 *
 * MCP Tasks, both generations at once (the era is not known before the handshake):
 * - 2025-11-25 `tasks`: we take task-backed questions (`requests.elicitation.create`,
 *   and `requests.sampling.createMessage` exactly when sampling is declared), and serve
 *   `tasks/list` and `tasks/cancel` for them (tasks/receiver.ts). Servers offer tools
 *   that need them (the reference server's two "-async" tools) only to such a client.
 * - 2026-07-28 `extensions["io.modelcontextprotocol/tasks"]`: a server may answer any
 *   tools/call with a task handle; it also travels with each request's capabilities.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ConnectionSettings } from '../ports';

export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What the connection declares when it connects (2025: `initialize`; 2026: the default for every request). */
export function declaredCapabilities(settings: ConnectionSettings, relaySampling: boolean): ClientCapabilities {
  return {
    elicitation: settings.urlMode ? { form: {}, url: {} } : { form: {} },
    roots: { listChanged: true },
    ...(relaySampling && { sampling: {} }),
    tasks: {
      list: {},
      cancel: {},
      requests: { elicitation: { create: {} }, ...(relaySampling && { sampling: { createMessage: {} } }) },
    },
    extensions: { [TASKS_EXTENSION]: {} },
  };
}

/** A 2026-era call's params, declaring sampling exactly when this call can serve it. */
export function withCallCapabilities(params: Record<string, unknown>, declared: ClientCapabilities, canSample: boolean): Record<string, unknown> {
  // The 2025 `tasks` capability means nothing in this era; the extension stands for it.
  const { sampling: _connectionWide, tasks: _legacyTasks, ...rest } = declared;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  return { ...params, _meta: { ...meta, [CLIENT_CAPABILITIES_META_KEY]: { ...rest, ...(canSample && { sampling: {} }) } } };
}
