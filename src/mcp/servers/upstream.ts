/**
 * What the gateway needs of one server we manage: its lists, its calls (with the person
 * answering every question on the way), and word when its lists change. `upstreamOver`
 * makes one from any source of a connection (the server manager gives one per server, so
 * this file does not know the manager); `src/gateway` consumes it. Results and tool
 * definitions travel as the server sent them (schemas, annotations, `_meta` unchanged):
 * the gateway forwards, it does not reinterpret.
 */
import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import type { ConfigSource } from '../config/config';
import type { ServerConnection } from '../connection/connection';
import type { CallOptions, CallProgress, ListKind } from '../ports';

export type { Caller, ListKind, Sampler } from '../ports';

/** Upstream progress, and ours: `round` while the server asks for input, a `message` while the person answers. */
export type UpstreamProgress = CallProgress;

/**
 * `signal`: the caller cancelled; the server hears `notifications/cancelled` and any open
 * question closes. `caller`: shown with every question the call raises ("for Claude
 * Code"). `sampling`: the caller can answer `sampling/createMessage`; upstream sampling
 * requests of this call go there (refused without it).
 */
export type UpstreamCallOptions = CallOptions;

/**
 * Whose configuration a server comes from: the person's own (`settings`, the
 * `elicitationHost.servers` setting; `own-file`, a file of theirs outside any workspace such
 * as `~/.copilot/mcp-config.json`) or a workspace's file (`.vscode/mcp.json`, `.mcp.json`),
 * which a repository writes. The gateway keeps a name's plain address for the person's own.
 */
export type ServerOrigin = 'settings' | 'own-file' | 'workspace';

export function originOf(source: ConfigSource): ServerOrigin {
  if (source.kind === 'workspace') return 'workspace';
  return source.file === undefined ? 'settings' : 'own-file';
}

export interface Upstream {
  /** The manager's id for the server (stable while its definition lives). */
  readonly id: string;
  /** The configured name: what the gateway reports as its own name downstream. */
  readonly name: string;
  readonly origin: ServerOrigin;
  /** Starts the server if needed; rejects with a message ready to show when it cannot. */
  ensureStarted(): Promise<void>;
  /** What the server declared, once started. */
  capabilities(): ServerCapabilities | undefined;
  /** Every tool, all pages, as the server sent them. */
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>, options?: UpstreamCallOptions): Promise<CallToolResult>;
  /** A page of resources; without a cursor, all of them. */
  listResources(cursor?: string): Promise<ListResourcesResult>;
  listResourceTemplates(cursor?: string): Promise<ListResourceTemplatesResult>;
  readResource(uri: string, options?: UpstreamCallOptions): Promise<ReadResourceResult>;
  listPrompts(cursor?: string): Promise<ListPromptsResult>;
  getPrompt(name: string, args: Record<string, string> | undefined, options?: UpstreamCallOptions): Promise<GetPromptResult>;
  /** The server said a list changed (or it restarted with a new one). Returns the unsubscribe. */
  onListChanged(listener: (kind: ListKind) => void): () => void;
}

/** What an upstream is made over: one server's connection, however it is kept (the server manager's entry, or one connection). */
export interface UpstreamSource {
  readonly id: string;
  readonly name: string;
  readonly origin: ServerOrigin;
  /** The current connection, if any. */
  current(): ServerConnection | undefined;
  /** A running connection: the current one, or one started (concurrent callers share the start). */
  start(): Promise<ServerConnection>;
  onListChanged(listener: (kind: ListKind) => void): () => void;
}

export function upstreamOver(source: UpstreamSource): Upstream {
  const running = async (): Promise<ServerConnection> => {
    const connection = source.current();
    return connection?.state === 'running' ? connection : source.start();
  };
  return {
    id: source.id,
    name: source.name,
    origin: source.origin,
    ensureStarted: async () => void (await running()),
    capabilities: () => {
      const connection = source.current();
      return connection?.state === 'running' ? (connection.serverCapabilities as ServerCapabilities | undefined) : undefined;
    },
    listTools: async () => [...(await running()).rawTools],
    callTool: async (name, args, options) => (await running()).callTool(name, args, options),
    listResources: async (cursor) => (await running()).listResources(cursor),
    listResourceTemplates: async (cursor) => (await running()).listResourceTemplates(cursor),
    readResource: async (uri, options) => (await running()).readResource(uri, options),
    listPrompts: async (cursor) => (await running()).listPrompts(cursor),
    getPrompt: async (name, args, options) => (await running()).getPrompt(name, args, options),
    onListChanged: (listener) => source.onListChanged(listener),
  };
}

/** One connection kept by the caller (tests, a host without a manager) as an upstream. */
export function connectionUpstream(connection: ServerConnection, id: string = connection.name): Upstream {
  return upstreamOver({
    id,
    name: connection.name,
    origin: originOf(connection.definition.source),
    current: () => connection,
    start: async () => {
      await connection.start();
      return connection;
    },
    onListChanged: (listener) => connection.onListChanged.add(listener),
  });
}
