/**
 * The gateway: a loopback HTTP listener serving every upstream server we manage to the
 * agents the person runs, one MCP endpoint per server, plus Claude Code's permission
 * hook and our built-in `elicitation-host` server. Every request passes the guard
 * (Host, Origin, token) before anything else reads it. Its paths are contract.ts's. Besides the
 * workspace's token, an agent session we start ourselves gets one of its own (agent-grants.ts),
 * which reaches the `/mcp/` endpoints only and names that agent and session in its calls' questions.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Broker } from '../elicitation/broker';
import type { ResultSink } from '../elicitation/history';
import type { InputStore } from '../elicitation/store';
import { Listeners } from '../base/listeners';
import { serverSdk } from '../mcp/sdk/sdk-loader';
import type { Upstream } from '../mcp/servers/upstream';
import { AgentGrants } from './agent-grants';
import { createForwardingServer } from './forwarding';
import { serveAsk } from './ask-endpoint';
import { BodyTooLargeError, MAX_BODY_BYTES, readBody, writeJsonRpcError } from './http-replies';
import { McpEndpoint } from './mcp-endpoint';
import { brokerPermissionAsker, type PermissionAsker } from './permission-asker';
import { servePermissionHook } from './permission-hook';
import { createPermissionServer } from './permission-server';
import { ASK_MAX_BODY_BYTES, ASK_PATH, MCP_PREFIX, PERMISSION_HOOK_PATH, PERMISSION_SERVER_NAME, PERMISSION_SERVER_PATH } from './contract';
import { checkRequest } from './request-guard';
import { assignPaths } from './server-paths';
import type { SessionLimits } from './session-pool';
import type { Timings } from '../mcp/ports';
import { errorMessage } from '../base/error-message';

/** The servers to serve, as they change (the person's "Serve to agents" choices, restarts). */
export interface UpstreamSource {
  list(): readonly Upstream[];
  /** Returns the unsubscribe. */
  onDidChange(listener: () => void): () => void;
}

export interface GatewayOptions {
  readonly upstreams: UpstreamSource;
  /** The workspace's token, read for every request (Rotate Token changes it). */
  readonly token: () => string;
  /** The port to listen on; 0 or absent: a free one. Taken: a free one, unless `strictPort`. */
  readonly port?: number;
  readonly strictPort?: boolean;
  /** Where Claude Code's permission requests and terminals' questions (`/ask`) are asked. */
  readonly broker: Broker;
  /** Overrides how permission requests are asked (tests). */
  readonly ask?: PermissionAsker;
  /** Open questions: calls get progress notes while the person answers one of theirs. */
  readonly store?: InputStore;
  readonly heartbeatMs?: number;
  /** Our version, reported as each served server's version. */
  readonly version: string;
  /** Each forwarded tool call's result, in words (the History keeps it with the call's questions). */
  readonly onToolResult?: ResultSink;
  /** Timings for `npm run bench`: set only in the benchmark build. */
  readonly timings?: Timings;
  readonly allowedOrigins?: readonly string[];
  /** 2025-era sessions kept per endpoint, in total and per client (defaults: session-pool.ts). */
  readonly sessionLimits?: SessionLimits;
  readonly log?: (message: string) => void;
}

export interface ServedServer {
  readonly id: string;
  readonly name: string;
  readonly path: string;
  readonly url: string;
}

interface Route {
  readonly upstream: Upstream;
  readonly path: string;
  readonly endpoint: McpEndpoint;
}

export class Gateway {
  /** The set of served servers changed (paths, additions, removals). */
  readonly onDidChange = new Listeners<void>();
  /** Tokens of the agent sessions we start ourselves: they reach the servers' endpoints only. */
  readonly grants = new AgentGrants();
  private routes = new Map<string, Route>();
  private readonly permissionEndpoint: McpEndpoint;
  private readonly ask: PermissionAsker;
  private readonly unsubscribe: () => void;
  private closing = false;

  private constructor(
    private readonly http: HttpServer,
    readonly port: number,
    private readonly options: GatewayOptions,
  ) {
    this.ask = options.ask ?? brokerPermissionAsker(options.broker);
    this.permissionEndpoint = new McpEndpoint({
      name: PERMISSION_SERVER_NAME,
      createServer: () =>
        createPermissionServer({ ask: this.ask, version: options.version, ...(options.store && { store: options.store }), ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }) }),
      onError: (error) => this.log(`${PERMISSION_SERVER_NAME}: ${error.message}`),
      ...(options.sessionLimits && { sessionLimits: options.sessionLimits }),
    });
    this.sync();
    this.unsubscribe = options.upstreams.onDidChange(() => this.sync());
    http.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.serve(req, res).catch((error: unknown) => {
        this.log(`request failed: ${errorMessage(error)}`);
        if (!res.headersSent) writeJsonRpcError(res, 500, 'The gateway failed to serve this request', -32603);
        else res.end();
      });
    });
  }

  /** Listens on 127.0.0.1 only. */
  static async start(options: GatewayOptions): Promise<Gateway> {
    const http = createServer();
    const listen = (port: number): Promise<void> =>
      new Promise((resolve, reject) => {
        const onError = (error: Error): void => reject(error);
        http.once('error', onError);
        http.listen(port, '127.0.0.1', () => {
          http.off('error', onError);
          resolve();
        });
      });
    try {
      await listen(options.port ?? 0);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EADDRINUSE' || options.strictPort || !options.port) throw error;
      options.log?.(`port ${options.port} is taken; listening on a free port instead`);
      await listen(0);
    }
    return new Gateway(http, (http.address() as AddressInfo).port, options);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get permissionHookUrl(): string {
    return `${this.url}${PERMISSION_HOOK_PATH}`;
  }

  get askUrl(): string {
    return `${this.url}${ASK_PATH}`;
  }

  get permissionServerUrl(): string {
    return `${this.url}${PERMISSION_SERVER_PATH}`;
  }

  /** What is served now, and where. */
  servers(): ServedServer[] {
    return [...this.routes.values()].map((r) => ({ id: r.upstream.id, name: r.upstream.name, path: r.path, url: `${this.url}${r.path}` }));
  }

  /**
   * Readies an agent's first request before it comes (VS Code's client is about to connect):
   * the SDK's server half run (otherwise the first request runs it, on that request's time)
   * and, given its path, the served server started (its tools/list would wait for that).
   */
  prepare(path?: string): void {
    const started = Date.now();
    serverSdk();
    this.options.timings?.({ event: 'gatewayPrepared', at: Date.now(), sdkMs: Date.now() - started });
    const route = path === undefined ? undefined : [...this.routes.values()].find((r) => r.path === path);
    // A failed start is the list's to report, as it would without this.
    void route?.upstream.ensureStarted().catch(() => undefined);
  }

  private log(message: string): void {
    this.options.log?.(message);
  }

  /** Follows the upstream list: new servers get an endpoint, removed ones lose theirs. */
  private sync(): void {
    if (this.closing) return;
    const upstreams = this.options.upstreams.list();
    const paths = assignPaths(upstreams.map((u) => ({ id: u.id, name: u.name, origin: u.origin })));
    const next = new Map<string, Route>();
    for (const upstream of upstreams) {
      const path = `${MCP_PREFIX}${paths.get(upstream.id)!}`;
      const current = this.routes.get(upstream.id);
      if (current && current.upstream === upstream && current.path === path) {
        next.set(upstream.id, current);
        continue;
      }
      if (current) void current.endpoint.close();
      next.set(upstream.id, { upstream, path, endpoint: this.endpointFor(upstream) });
    }
    for (const [id, route] of this.routes) if (!next.has(id)) void route.endpoint.close();
    this.routes = next;
    this.onDidChange.fire();
  }

  private endpointFor(upstream: Upstream): McpEndpoint {
    const { store, heartbeatMs, version, onToolResult, timings, sessionLimits } = this.options;
    return new McpEndpoint({
      name: upstream.name,
      createServer: (suspended, grant) =>
        createForwardingServer({
          upstream,
          version,
          suspended,
          ...(grant && { grant }),
          ...(store && { store }),
          ...(heartbeatMs !== undefined && { heartbeatMs }),
          ...(onToolResult && { onToolResult }),
          ...(timings && { timings }),
        }),
      onListChanged: (listener) => upstream.onListChanged(listener),
      onError: (error) => this.log(`${upstream.name}: ${error.message}`),
      ...(sessionLimits && { sessionLimits }),
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAt = Date.now();
    const verdict = checkRequest(req.headers, {
      port: this.port,
      token: this.options.token,
      grantFor: (token) => this.grants.find(token),
      ...(this.options.allowedOrigins && { allowedOrigins: this.options.allowedOrigins }),
    });
    if (!verdict.ok) {
      writeJsonRpcError(res, verdict.status, verdict.message);
      return;
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (verdict.grant && !path.startsWith(MCP_PREFIX)) {
      writeJsonRpcError(res, 403, "This token was given to an agent's session for its MCP servers only: it asks no questions and answers no hooks.");
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      let text: string;
      try {
        text = await readBody(req, path === ASK_PATH ? ASK_MAX_BODY_BYTES : MAX_BODY_BYTES);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          writeJsonRpcError(res, 413, error.message);
          return;
        }
        throw error;
      }
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        writeJsonRpcError(res, 400, 'The request body is not JSON', -32700);
        return;
      }
    }
    // The benchmark's stamps of an agent's way in (its first call's initialize, list, call).
    this.options.timings?.({ event: 'gatewayRequest', method: req.method, rpc: (body as { method?: unknown } | undefined)?.method, at: arrivedAt });
    if (path === PERMISSION_HOOK_PATH) {
      await servePermissionHook(req, res, body, this.ask);
      return;
    }
    if (path === ASK_PATH) {
      await serveAsk(req, res, body, this.options.broker);
      return;
    }
    if (path === PERMISSION_SERVER_PATH) {
      await this.permissionEndpoint.handle(req, res, body);
      return;
    }
    const route = [...this.routes.values()].find((r) => r.path === path);
    if (!route) {
      writeJsonRpcError(res, 404, `No server is served at ${path}; served: ${this.servers().map((s) => s.path).join(', ') || 'none'}`);
      return;
    }
    await route.endpoint.handle(req, res, body, verdict.grant);
  }

  /** Stops listening and ends every session; upstream servers keep running. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.unsubscribe();
    this.grants.clear();
    await Promise.all([...[...this.routes.values()].map((r) => r.endpoint.close()), this.permissionEndpoint.close()]);
    this.routes.clear();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }
}
