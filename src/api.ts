/**
 * What other extensions (and the end-to-end tests) get from `activate`: questions asked
 * in the calling extension's own name, the configured servers, and tool calls. Nothing
 * mutable is handed out (not the input store, whose drafts may be secrets), and an
 * extension is always shown as an extension ("Extension: name"), never under a server's
 * name. VS Code does not tell us which extension calls, so the name is the one it gives.
 */
import type { Broker, FormParams, UrlParams } from './elicitation/broker';
import type { ElicitResult } from './elicitation/model';
import { withoutInvisible } from './elicitation/plain-text';
import type { ServerManager } from './mcp/manager';

export interface ServerSummary {
  readonly name: string;
  readonly state: string;
  readonly tools: readonly string[];
  readonly protocolVersion?: string;
  readonly capabilities?: readonly string[];
}

export interface ElicitationHostApi {
  /** Asks the person on behalf of the calling extension (shown as "Extension: requester"), through the same prompts servers get. */
  requestInput(params: FormParams | UrlParams, options: { requester: string; signal?: AbortSignal }): Promise<ElicitResult>;
  /** The configured servers and their state (a copy). */
  servers(): ServerSummary[];
  /** Calls a server's tool (starting the server if needed), answering its questions through the UI. */
  callTool(server: string, tool: string, args?: Record<string, unknown>): Promise<unknown>;
}

/** An extension's name as shown: text, without invisible characters, short. */
export const REQUESTER_FITS = 60;

export function requesterName(requester: unknown): string {
  const name = typeof requester === 'string' ? withoutInvisible(requester).replace(/\s+/g, ' ').trim() : '';
  if (!name) throw new TypeError('requestInput needs options.requester: the name of the asking extension');
  return name.length > REQUESTER_FITS ? `${name.slice(0, REQUESTER_FITS - 1)}…` : name;
}

export interface ApiDeps {
  readonly broker: Broker;
  readonly manager: ServerManager;
  readonly applyDefaults: () => boolean;
}

export function createApi({ broker, manager, applyDefaults }: ApiDeps): ElicitationHostApi {
  return {
    requestInput: async (params, options) =>
      broker.elicit(params, {
        source: { server: requesterName(options?.requester), requester: 'extension' },
        signal: options?.signal ?? new AbortController().signal,
        applyDefaults: applyDefaults(),
      }),
    servers: () =>
      manager.servers.map((e) => ({
        name: e.definition.name,
        state: e.blocked ? 'blocked' : (e.connection?.state ?? 'stopped'),
        tools: e.connection?.tools.map((t) => t.name) ?? [],
        ...(e.connection?.protocolVersion && { protocolVersion: e.connection.protocolVersion }),
        ...(e.connection?.serverCapabilities && { capabilities: Object.keys(e.connection.serverCapabilities) }),
      })),
    callTool: (server, tool, args = {}) => {
      const entry = manager.find(server);
      if (!entry) return Promise.reject(new Error(`no server "${server}" is configured`));
      return manager.callTool(entry.id, tool, args);
    },
  };
}
