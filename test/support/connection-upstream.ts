/**
 * A stand-in for the connection layer's `Upstream` implementation, for the gateway's
 * tests until that lands: today's `ServerConnection` does the calls (questions, rounds,
 * -32042, cancellation, progress), and what it does not offer yet is reached around it:
 *
 * - raw tool definitions, resources and prompts: read with the connection's own SDK
 *   client (a private field);
 * - the caller: questions asked while calls of one agent are in flight are tagged with
 *   that agent, by a broker wrapper (the real layer passes `caller` into the question);
 * - sampling: a `sampling/createMessage` request from a 2025-era server is sent to the
 *   `sampling` option of the call in flight (the real layer also declares the capability
 *   and serves 2026-07-28 rounds);
 * - list changes: a changed tool list on the connection, and every restart.
 *
 * Switch the gateway tests to the real implementation when it is on main, and delete this.
 */
import type { Client, CreateMessageRequestParams, CreateMessageResult, JSONRPCRequest, Tool } from '@modelcontextprotocol/client';
import type { Broker } from '../../src/elicitation/broker';
import type { ServerDefinition } from '../../src/mcp/config';
import { type ConnectionSettings, ServerConnection, type ServerLog, type UrlFlow } from '../../src/mcp/connection';
import type { ListKind, Upstream, UpstreamCallOptions } from '../../src/mcp/upstream';
import { DEFAULT_SETTINGS } from './servers';

/** What the stand-in takes from the host: the broker, a log, the link flow. */
export interface UpstreamHost {
  readonly broker: Broker;
  readonly log: ServerLog;
  readonly urlFlow: UrlFlow;
}

interface InFlight {
  readonly agent: string | undefined;
  readonly sampling: UpstreamCallOptions['sampling'];
}

export class ConnectionUpstream implements Upstream {
  readonly connection: ServerConnection;
  private readonly inFlight = new Set<InFlight>();
  private readonly listeners = new Set<(kind: ListKind) => void>();
  private lastTools = '';

  constructor(
    readonly definition: ServerDefinition,
    host: UpstreamHost,
    settings: Partial<ConnectionSettings> = {},
    readonly id = `test#${definition.name}`,
  ) {
    const tagging = {
      elicit: (params, ctx) => {
        const agents = new Set([...this.inFlight].map((c) => c.agent));
        const agent = agents.size === 1 ? [...agents][0] : undefined;
        return host.broker.elicit(params, { ...ctx, source: { ...ctx.source, ...(agent && { agent }) } });
      },
    } as Pick<Broker, 'elicit'> as Broker;
    this.connection = new ServerConnection(definition, {
      broker: tagging,
      log: host.log,
      settings: () => ({ ...DEFAULT_SETTINGS, ...settings }),
      roots: () => [{ uri: 'file:///workspace', name: 'workspace' }],
      clientInfo: { name: 'elicitation-host-tests', version: '0.0.0' },
      urlFlow: host.urlFlow,
      reconnectDelaysMs: [],
    });
    this.connection.onDidChange.add(() => {
      const tools = this.connection.state === 'running' ? JSON.stringify(this.connection.tools) : '';
      if (tools !== this.lastTools) {
        const first = this.lastTools === '' && tools !== '';
        this.lastTools = tools;
        if (!first) this.fire('tools');
      }
    });
  }

  get name(): string {
    return this.definition.name;
  }

  private fire(kind: ListKind): void {
    for (const listener of [...this.listeners]) listener(kind);
  }

  /** The connection's SDK client: what today's connection does not expose yet. */
  private client(): Client {
    const client = (this.connection as unknown as { client?: Client }).client;
    if (!client) throw new Error(`${this.name} is not running`);
    return client;
  }

  private starting: Promise<void> | undefined;

  /** Concurrent first calls share one start (the connection's own start returns early while starting). */
  ensureStarted(): Promise<void> {
    const running = this.connection.state === 'running' && (this.connection as unknown as { client?: Client }).client;
    if (running) return Promise.resolve();
    this.starting ??= (async () => {
      // A connection that just lost its server still says running for a moment: start afresh.
      if (this.connection.state === 'running') await this.connection.stop();
      await this.connection.start();
      this.routeSampling();
    })().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Sends 2025-era sampling requests to the call in flight that can serve them. */
  private routeSampling(): void {
    const client = this.client();
    const fallback = client.fallbackRequestHandler;
    client.fallbackRequestHandler = async (request: JSONRPCRequest, ctx) => {
      if (request.method === 'sampling/createMessage') {
        const call = [...this.inFlight].find((c) => c.sampling);
        if (call?.sampling) {
          return (await call.sampling(request.params as unknown as CreateMessageRequestParams, ctx.mcpReq.signal)) as unknown as Record<string, unknown>;
        }
      }
      return fallback!(request, ctx);
    };
  }

  capabilities() {
    return this.connection.serverCapabilities as ReturnType<Upstream['capabilities']>;
  }

  async listTools(): Promise<Tool[]> {
    await this.ensureStarted();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client().listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, options: UpstreamCallOptions = {}) {
    await this.ensureStarted();
    const entry: InFlight = { agent: options.caller?.kind === 'agent' ? options.caller.name : undefined, sampling: options.sampling };
    this.inFlight.add(entry);
    try {
      return await this.connection.callTool(name, args, {
        ...(options.signal && { signal: options.signal }),
        ...(options.onProgress && { onProgress: (p) => options.onProgress!(p) }),
      });
    } finally {
      this.inFlight.delete(entry);
    }
  }

  async listResources(cursor?: string) {
    await this.ensureStarted();
    return this.client().listResources(cursor ? { cursor } : undefined);
  }

  async listResourceTemplates(cursor?: string) {
    await this.ensureStarted();
    return this.client().listResourceTemplates(cursor ? { cursor } : undefined);
  }

  async readResource(uri: string, options: UpstreamCallOptions = {}) {
    await this.ensureStarted();
    return this.client().readResource({ uri }, { ...(options.signal && { signal: options.signal }) });
  }

  async listPrompts(cursor?: string) {
    await this.ensureStarted();
    return this.client().listPrompts(cursor ? { cursor } : undefined);
  }

  async getPrompt(name: string, args: Record<string, string> | undefined, options: UpstreamCallOptions = {}) {
    await this.ensureStarted();
    return this.client().getPrompt({ name, ...(args && { arguments: args }) }, { ...(options.signal && { signal: options.signal }) });
  }

  onListChanged(listener: (kind: ListKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    await this.connection.stop();
  }
}

/** A sampling answer for tests: what the agent's model "said". */
export function cannedCompletion(text: string): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model: 'test-model' } as CreateMessageResult;
}
