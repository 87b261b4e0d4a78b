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
 *
 * A request made with a session's own token (agent-grants.ts) serves that agent and session:
 * the server made for it names them as the caller, and a 2025-era session answers only the
 * token it was opened with.
 *
 * 2025-era sessions are bounded (session-pool.ts: only idle ones make room). A 2025-era
 * call whose caller's response stream closes before its answer (the agent's process died:
 * no `notifications/cancelled` comes) is cancelled as if the agent had sent one, so the
 * upstream call ends and its question is withdrawn, as the 2026-07-28 leg does per request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import type { McpHttpHandler, Server } from '@modelcontextprotocol/server';
import { serverSdk } from '../mcp/sdk/sdk-loader';
import type { ListKind } from '../mcp/servers/upstream';
import type { AgentGrant } from './agent-grants';
import { agentName } from './forwarding';
import { writeJsonRpcError } from './http-replies';
import { SuspendedCalls } from './sampling-rounds';
import { SessionPool, type SessionLimits } from './session-pool';

export interface EndpointOptions {
  /** Shown in refusals: the server this endpoint serves. */
  readonly name: string;
  /** A fresh SDK server for one session or one request; `grant`: the agent session it serves, when known. */
  readonly createServer: (suspended: SuspendedCalls, grant?: AgentGrant) => Server;
  /** Word that a list changed; returns the unsubscribe. */
  readonly onListChanged?: (listener: (kind: ListKind) => void) => () => void;
  /** 2025-era sessions kept at once, in total and per client (defaults: session-pool.ts). */
  readonly sessionLimits?: SessionLimits;
  readonly onError?: (error: Error) => void;
}

interface Session {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly server: Server;
  /** The agent session whose token opened it, if one did. */
  readonly grant: AgentGrant | undefined;
}

type RequestId = string | number;

/** Why a call ends when its caller's stream closed first (the reason its cancellation carries). */
const CALLER_GONE = 'the agent went away: its connection closed before the answer';

/** The ids of the JSON-RPC requests in a POST body (one message, or a 2025-03-26 batch). */
function requestIds(body: unknown): RequestId[] {
  return (Array.isArray(body) ? body : [body]).flatMap((m: unknown) => {
    const { method, id } = (typeof m === 'object' && m !== null ? m : {}) as { method?: unknown; id?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

export class McpEndpoint {
  private readonly sessions: SessionPool<Session>;
  private readonly suspended = new SuspendedCalls();
  /** The 2026-07-28 handler, made with the first such request (the SDK loads with the first request, not when the gateway starts). */
  private modern: { readonly handler: McpHttpHandler; readonly serve: ReturnType<typeof toNodeHandler> } | undefined;
  private readonly unsubscribe: () => void;
  private closed = false;
  /** The grant of the 2026-07-28 request being served: the SDK makes its server inside that request. */
  private readonly requestGrant = new AsyncLocalStorage<AgentGrant | undefined>();

  constructor(private readonly options: EndpointOptions) {
    this.sessions = new SessionPool(options.sessionLimits);
    this.unsubscribe = options.onListChanged?.((kind) => this.listChanged(kind)) ?? (() => undefined);
  }

  private modernHandler(): NonNullable<McpEndpoint['modern']> {
    if (!this.modern) {
      const { createMcpHandler, toNodeHandler } = serverSdk();
      const { onError } = this.options;
      const handler = createMcpHandler(() => this.createServer(this.requestGrant.getStore()), { legacy: 'reject', ...(onError && { onerror: onError }) });
      this.modern = { handler, serve: toNodeHandler(handler, { ...(onError && { onerror: onError }) }) };
    }
    return this.modern;
  }

  /** The number of 2025-era sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  private createServer(grant: AgentGrant | undefined): Server {
    return this.options.createServer(this.suspended, grant);
  }

  /**
   * Serves one HTTP request; `body` is the parsed JSON of a POST (the stream is already read).
   * `grant`: the request carried an agent session's own token.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, grant?: AgentGrant): Promise<void> {
    if (this.closed) {
      writeJsonRpcError(res, 503, `${this.options.name} is no longer served`);
      return;
    }
    // The SDK's server half runs with the first request, not when the gateway starts.
    const { isInitializeRequest, isLegacyRequest, toWebRequest } = serverSdk();
    const legacy = await isLegacyRequest(await toWebRequest(req, body), body);
    if (!legacy) {
      await this.requestGrant.run(grant, () => this.modernHandler().serve(req, res, body));
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      // Another token's session is not this caller's to use: it is as unknown to them as a closed one.
      if (!session || session.grant !== grant) {
        // The spec's answer to an unknown session: the client starts a new one.
        writeJsonRpcError(res, 404, 'Session not found: initialize again');
        return;
      }
      this.sessions.touch(sessionId);
      const ids = req.method === 'POST' ? requestIds(body) : [];
      if (ids.length > 0) this.whileInFlight(sessionId, session, ids, res);
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      writeJsonRpcError(res, 400, 'No session: send initialize first (or speak MCP 2026-07-28)');
      return;
    }
    await this.startSession(req, res, body, grant);
  }

  /**
   * Counts the session busy until this response ends (it is then never evicted). A response
   * that closes before it finished lost its caller: its calls are cancelled the way the
   * agent's own `notifications/cancelled` would (the SDK aborts each handler's signal).
   */
  private whileInFlight(id: string, session: Session, ids: RequestId[], res: ServerResponse): void {
    const end = this.sessions.begin(id);
    res.once('close', () => {
      end();
      if (res.writableFinished) return;
      for (const requestId of ids) {
        session.transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: CALLER_GONE } });
      }
    });
  }

  private async startSession(req: IncomingMessage, res: ServerResponse, body: { params: { clientInfo?: { name?: unknown } } }, grant: AgentGrant | undefined): Promise<void> {
    const client = grant?.agent ?? agentName({ name: body.params.clientInfo?.name });
    const admission = this.sessions.admit(client, this.options.name);
    if (!admission.ok) {
      writeJsonRpcError(res, 503, admission.message);
      return;
    }
    for (const evicted of admission.evicted) void evicted.server.close().catch(() => undefined);
    let added = false;
    const server = this.createServer(grant);
    const transport: NodeStreamableHTTPServerTransport = new (serverSdk().NodeStreamableHTTPServerTransport)({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        added = true;
        this.sessions.add(id, client, { transport, server, grant });
      },
      onsessionclosed: (id) => this.sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      if (!added) this.sessions.withdraw(client);
    }
    if (!transport.sessionId) await server.close().catch(() => undefined);
  }

  private listChanged(kind: ListKind): void {
    for (const { server } of this.sessions.sessions()) {
      const send = kind === 'tools' ? server.sendToolListChanged() : kind === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
      void Promise.resolve(send).catch(() => undefined);
    }
    // No handler yet: nobody has subscribed.
    const notify = this.modern?.handler.notify;
    if (kind === 'tools') notify?.toolsChanged();
    else if (kind === 'resources') notify?.resourcesChanged();
    else notify?.promptsChanged();
  }

  /** Ends every session and exchange; an upstream server itself is not ours to stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.suspended.clear(`${this.options.name} is no longer served`);
    const sessions = this.sessions.clear();
    await Promise.all([...sessions.map((s) => s.server.close().catch(() => undefined)), this.modern?.handler.close().catch(() => undefined)]);
  }
}
