/**
 * One MCP endpoint (an upstream server's, or our own built-in server's), in both protocol
 * eras:
 *
 * - 2025-era agents (`initialize`, then a session): one SDK Server per session over the
 *   SDK's sessionful Streamable HTTP transport, so the agent's `clientInfo` and
 *   capabilities are known for every call, `list_changed` reaches it on its GET stream,
 *   and sampling requests reach it on its session.
 * - 2026-07-28 agents (a `_meta` envelope on every request): the SDK's strict per-request
 *   handler; `list_changed` goes to open `subscriptions/listen` streams.
 *
 * Requests are routed with the SDK's own classification (`isLegacyRequest`), so the two
 * legs never disagree about a request. The gateway's guard has run before anything here.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import type { ListKind } from '../mcp/servers/upstream';
import { writeJsonRpcError } from './http-replies';
import { SuspendedCalls } from './sampling-rounds';

export interface EndpointOptions {
  /** Shown in refusals: the server this endpoint serves. */
  readonly name: string;
  /** A fresh SDK server for one session or one request. */
  readonly createServer: (suspended: SuspendedCalls) => Server;
  /** Word that a list changed; returns the unsubscribe. */
  readonly onListChanged?: (listener: (kind: ListKind) => void) => () => void;
  /** 2025-era sessions kept at once; the oldest is closed past it. */
  readonly maxSessions?: number;
  readonly onError?: (error: Error) => void;
}

interface Session {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: Server;
}

const DEFAULT_MAX_SESSIONS = 64;

export class McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly suspended = new SuspendedCalls();
  private readonly modern: McpHttpHandler;
  private readonly serveModern: ReturnType<typeof toNodeHandler>;
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(private readonly options: EndpointOptions) {
    this.modern = createMcpHandler(() => this.createServer(), { legacy: 'reject', ...(options.onError && { onerror: options.onError }) });
    this.serveModern = toNodeHandler(this.modern, { ...(options.onError && { onerror: options.onError }) });
    this.unsubscribe = options.onListChanged?.((kind) => this.listChanged(kind)) ?? (() => undefined);
  }

  /** The number of 2025-era sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private createServer(): Server {
    return this.options.createServer(this.suspended);
  }

  /** Serves one HTTP request; `body` is the parsed JSON of a POST (the stream is already read). */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (this.closed) {
      writeJsonRpcError(res, 503, `${this.options.name} is no longer served`);
      return;
    }
    const legacy = await isLegacyRequest(await toWebRequest(req, body), body);
    if (!legacy) {
      await this.serveModern(req, res, body);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) {
        // The spec's answer to an unknown session: the client starts a new one.
        writeJsonRpcError(res, 404, 'Session not found: initialize again');
        return;
      }
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      writeJsonRpcError(res, 400, 'No session: send initialize first (or speak MCP 2026-07-28)');
      return;
    }
    await this.startSession(req, res, body);
  }

  private async startSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const server = this.createServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server });
        this.trimSessions();
      },
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    if (!transport.sessionId) await server.close().catch(() => undefined);
  }

  private trimSessions(): void {
    const max = this.options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    for (const [id, session] of this.sessions) {
      if (this.sessions.size <= max) break;
      this.sessions.delete(id);
      void session.server.close().catch(() => undefined);
    }
  }

  private listChanged(kind: ListKind): void {
    for (const { server } of this.sessions.values()) {
      const send = kind === 'tools' ? server.sendToolListChanged() : kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
      void Promise.resolve(send).catch(() => undefined);
    }
    if (kind === 'tools') this.modern.notify.toolsChanged();
    else if (kind === 'resources') this.modern.notify.resourcesChanged();
    else this.modern.notify.promptsChanged();
  }

  /** Ends every session and exchange; an upstream server itself is not ours to stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.suspended.clear(`${this.options.name} is no longer served`);
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all([...sessions.map((s) => s.server.close().catch(() => undefined)), this.modern.close().catch(() => undefined)]);
  }
}
