/**
 * The gateway in tests: our host's middle (store, broker, a scripted person), upstream
 * fixture servers behind it, and agents: plain SDK clients connecting over HTTP with the
 * token, in the 2025 era (`initialize`) or the 2026-07-28 era (`server/discover`).
 */
import { join } from 'node:path';
import { Client, type ClientOptions, type CreateMessageResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Prompter } from '../../src/elicitation/broker';
import { Gateway, type GatewayOptions, type UpstreamSource } from '../../src/gateway/gateway';
import type { ServerDefinition } from '../../src/mcp/config/config';
import { ServerConnection } from '../../src/mcp/connection/connection';
import type { ConnectionSettings } from '../../src/mcp/ports';
import { Listeners } from '../../src/base/listeners';
import { connectionUpstream, type Upstream } from '../../src/mcp/servers/upstream';
import { createHost, DEFAULT_SETTINGS, FIXTURES, type Host, REPO } from './servers';

export const TOKEN = 'test-token-0123456789';

/** The gateway fixture (run from source with tsx): the usual tools plus sampling, list changes, a resource, a prompt. */
export function gatewayFixture(name = 'restaurant'): ServerDefinition {
  return {
    name,
    source: { kind: 'user' },
    config: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', join(REPO, 'test/fixtures/servers/gateway-fixture.ts'), '--name', name], env: {} },
  };
}

/** A bundled fixture (`npm run build` writes them). */
export function bundledFixture(name: string, script: string, args: string[] = []): ServerDefinition {
  return { name, source: { kind: 'user' }, config: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, script), ...args], env: {} } };
}

/** A changeable list of upstreams. */
export class UpstreamList implements UpstreamSource {
  private readonly changed = new Listeners<void>();
  constructor(private items: Upstream[] = []) {}
  list(): readonly Upstream[] {
    return this.items;
  }
  set(items: Upstream[]): void {
    this.items = items;
    this.changed.fire();
  }
  onDidChange(listener: () => void): () => void {
    return this.changed.add(listener);
  }
}

export interface AgentOptions {
  readonly name?: string;
  readonly title?: string;
  /** `legacy`: the 2025 handshake; `auto`: MCP 2026-07-28 when the gateway offers it (it does). */
  readonly era?: 'legacy' | 'auto';
  readonly capabilities?: ClientOptions['capabilities'];
  readonly token?: string;
  readonly headers?: Record<string, string>;
}

export interface GatewayHarness {
  readonly host: Host;
  readonly gateway: Gateway;
  readonly upstreams: UpstreamList;
  readonly connections: ReadonlyArray<{ readonly connection: ServerConnection; readonly upstream: Upstream }>;
  /** An agent connected to the endpoint of upstream `server` (its name, or the path it is served at: `/mcp/github-2`). */
  agent(server: string, options?: AgentOptions): Promise<Client>;
  close(): Promise<void>;
}

export async function startGateway(
  prompter: Prompter,
  definitions: ServerDefinition[],
  options: { settings?: Partial<ConnectionSettings>; gateway?: Partial<GatewayOptions> } = {},
): Promise<GatewayHarness> {
  const host = createHost(prompter);
  const connections = definitions.map((definition) => {
    const connection = new ServerConnection(definition, {
      broker: host.broker,
      log: host.log,
      settings: () => ({ ...DEFAULT_SETTINGS, ...options.settings }),
      roots: () => [{ uri: 'file:///workspace', name: 'workspace' }],
      clientInfo: { name: 'elicitation-host-tests', version: '0.0.0' },
      urlFlow: host.urlFlow,
      reconnectDelaysMs: [],
      relaySampling: true,
    });
    // Ids as the manager makes them (the file, or the setting's `user`; `test` here).
    return { connection, upstream: connectionUpstream(connection, `${definition.source.file ?? 'test'}#${definition.name}`) };
  });
  const upstreams = new UpstreamList(connections.map((c) => c.upstream));
  const gateway = await Gateway.start({ upstreams, token: () => TOKEN, broker: host.broker, store: host.store, version: '0.0.0-test', ...options.gateway });
  const agents: Client[] = [];
  return {
    host,
    gateway,
    upstreams,
    connections,
    async agent(server, agentOptions = {}) {
      const served = gateway.servers().find((s) => (server.startsWith('/') ? s.path === server : s.name === server));
      if (!served) throw new Error(`the gateway serves no ${server}`);
      const client = new Client(
        { name: agentOptions.name ?? 'test-agent', version: '1.0.0', ...(agentOptions.title && { title: agentOptions.title }) },
        { capabilities: agentOptions.capabilities ?? {}, ...(agentOptions.era === 'auto' && { versionNegotiation: { mode: 'auto' } }) },
      );
      const transport = new StreamableHTTPClientTransport(new URL(served.url), {
        requestInit: { headers: { authorization: `Bearer ${agentOptions.token ?? TOKEN}`, ...agentOptions.headers } },
      });
      await client.connect(transport);
      agents.push(client);
      return client;
    },
    async close() {
      await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
      await gateway.close();
      await Promise.all(connections.map((c) => c.connection.stop()));
      await host.closeAll();
    },
  };
}

/**
 * Registers an afterEach that closes what the test started: `const gateways = gatewaysPerTest()`
 * in a describe, then `const harness = await gateways.start(...)` in a test.
 */
export function gatewaysPerTest(): { start: typeof startGateway } {
  let open: GatewayHarness[] = [];
  afterEach(async () => {
    const closing = open;
    open = [];
    await Promise.all(closing.map((h) => h.close()));
  });
  return {
    async start(...args) {
      const harness = await startGateway(...args);
      let closed: Promise<void> | undefined;
      // Closed once, whether the test closes it itself or the hook does.
      const once: GatewayHarness = { ...harness, close: () => (closed ??= harness.close()) };
      open.push(once);
      return once;
    },
  };
}

/** A sampling answer for tests: what the agent's model "said". */
export function cannedCompletion(text: string): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model: 'test-model' } as CreateMessageResult;
}
