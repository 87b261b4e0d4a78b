/**
 * What the gateway needs of one server we manage: its lists, its calls (with the
 * person answering every question on the way), and word when its lists change. The
 * connection layer implements it; `src/gateway` consumes it. Results and tool
 * definitions travel as the server sent them (schemas, annotations, `_meta` unchanged):
 * the gateway forwards, it does not reinterpret.
 */
import type {
  CallToolResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';

/** Who made a call: shown to the person with every question it raises. */
export type Caller = { readonly kind: 'person' } | { readonly kind: 'agent'; readonly name: string };

export interface UpstreamProgress {
  readonly progress?: number;
  readonly total?: number;
  readonly message?: string;
}

export interface UpstreamCallOptions {
  /** Fires when the caller cancels; the upstream request is cancelled and any open question closes. */
  readonly signal?: AbortSignal;
  /** Upstream progress, and our own ("waiting for your answer") while the person answers. */
  readonly onProgress?: (progress: UpstreamProgress) => void;
  readonly caller?: Caller;
  /**
   * Present when the caller can serve `sampling/createMessage` (a downstream client that
   * advertises sampling): upstream sampling requests made during this call go there.
   * Absent: they are refused as today.
   */
  readonly sampling?: (params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;
}

export type ListKind = 'tools' | 'resources' | 'prompts';

export interface Upstream {
  /** The manager's id for the server (stable while its definition lives). */
  readonly id: string;
  /** The configured name: what the gateway reports as its own name downstream. */
  readonly name: string;
  /** Starts the server if needed; rejects with a message ready to show when it cannot. */
  ensureStarted(): Promise<void>;
  /** What the server declared, once started. */
  capabilities(): ServerCapabilities | undefined;
  /** Every tool, all pages, as the server sent them. */
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>, options?: UpstreamCallOptions): Promise<CallToolResult>;
  listResources(cursor?: string): Promise<ListResourcesResult>;
  listResourceTemplates(cursor?: string): Promise<ListResourceTemplatesResult>;
  readResource(uri: string, options?: UpstreamCallOptions): Promise<ReadResourceResult>;
  listPrompts(cursor?: string): Promise<ListPromptsResult>;
  getPrompt(name: string, args: Record<string, string> | undefined, options?: UpstreamCallOptions): Promise<GetPromptResult>;
  /** The server said a list changed (or it restarted with a new one). Returns the unsubscribe. */
  onListChanged(listener: (kind: ListKind) => void): () => void;
}
