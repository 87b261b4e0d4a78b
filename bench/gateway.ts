/**
 * The gateway's cost and its correctness under load (issue 17, "Tests and figures").
 *
 * 1. Latency: a tool call (`echo`, which asks nothing) from a plain SDK `Client` over
 *    Streamable HTTP, through our gateway (guard, endpoint, forwarding server, upstream
 *    connection and broker) to a fixture server over stdio, against a bare SDK proxy: an
 *    SDK `Client` over stdio to the same fixture, behind an SDK `Server` on the same
 *    transport the gateway gives 2025-era agents (the sessionful
 *    `NodeStreamableHTTPServerTransport`), forwarding `tools/call` as it comes.
 *    How the pair is made comparable: both proxies and both fixture servers are started,
 *    both downstream clients are connected (same client, same transport, same headers)
 *    and both paths are warmed before any timing; then the two alternate call by call, the
 *    order flipped every call (ABBA), so machine noise hits both; every call is timed the
 *    same way at the downstream client, with the same tool and the same arguments.
 * 2. Concurrency: 5 agents × 20 concurrent calls of `collect_feedback`, whose question
 *    names the call's own id; a scripted person waits until every question is in (all open
 *    at once), then answers each, in random order, with the id it read in it. Every call
 *    must return its own id: anything else is lost or answered to the wrong call. Run with
 *    the broker as shipped, and with its limit of open questions per server raised, to see
 *    the routing alone.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Server } from '@modelcontextprotocol/server';
import type { Prompter } from '../src/elicitation/broker';
import { Gateway } from '../src/gateway/gateway';
import type { ServerDefinition } from '../src/mcp/config/config';
import { ServerConnection } from '../src/mcp/connection/connection';
import { connectionUpstream, type Upstream } from '../src/mcp/servers/upstream';
import { TOKEN, UpstreamList } from '../test/support/gateway-harness';
import { submitted } from '../test/support/scripted-prompter';
import { createHost, DEFAULT_SETTINGS, FIXTURES, type Host, type HostOptions, requireFixtures, toolJson } from '../test/support/servers';
import { againstBaseline, type AgainstBaseline, blockRatios, type BlockRatios, median, round } from './stats';

const FIXTURE_ARGS = [join(FIXTURES, 'stdio.js'), '--only', 'echo,collect_feedback'];
const SERVER_NAME = 'bench';

function fixtureDefinition(): ServerDefinition {
  return { name: SERVER_NAME, source: { kind: 'user' }, config: { type: 'stdio', command: process.execPath, args: FIXTURE_ARGS, env: {} } };
}

/**
 * The only place the gateway's upstream is made. Today: the tests' stand-in over
 * `ServerConnection`; swap in src/mcp's `Upstream` implementation when it lands.
 */
function makeUpstream(host: Host): Upstream & { stop(): Promise<void> } {
  const connection = new ServerConnection(fixtureDefinition(), {
    broker: host.broker,
    log: host.log,
    settings: () => DEFAULT_SETTINGS,
    roots: () => [],
    clientInfo: { name: 'elicitation-host-bench', version: '0.0.0' },
    urlFlow: host.urlFlow,
    reconnectDelaysMs: [],
  });
  return { ...connectionUpstream(connection, SERVER_NAME), stop: () => connection.stop() };
}

interface Proxy {
  readonly url: string;
  close(): Promise<void>;
}

/** Our gateway, serving one upstream fixture, with `prompter` answering its questions. */
export async function startOurs(prompter: Prompter, hostOptions: HostOptions = {}): Promise<Proxy> {
  const host = createHost(prompter, hostOptions);
  const upstream = makeUpstream(host);
  await upstream.ensureStarted();
  const gateway = await Gateway.start({ upstreams: new UpstreamList([upstream]), token: () => TOKEN, broker: host.broker, store: host.store, version: '0.0.0-bench' });
  return {
    url: gateway.servers()[0].url,
    async close() {
      await gateway.close();
      await upstream.stop();
      await host.closeAll();
    },
  };
}

/** The baseline: an SDK Client to the fixture behind an SDK Server that forwards tools/list and tools/call. */
async function startBare(): Promise<Proxy> {
  const upstream = new Client({ name: 'bare-proxy', version: '0' });
  await upstream.connect(new StdioClientTransport({ command: process.execPath, args: FIXTURE_ARGS, stderr: 'ignore' }));
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const servers: Server[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? sessions.get(id) : undefined;
      if (existing) return existing.handleRequest(req, res);
      const server = new Server({ name: SERVER_NAME, version: '0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => upstream.listTools());
      server.setRequestHandler('tools/call', (request, ctx) => upstream.callTool(request.params, { signal: ctx.mcpReq.signal }));
      servers.push(server);
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    async close() {
      await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await upstream.close();
    },
  };
}

/** The downstream agent, the same for both sides: a plain SDK Client over Streamable HTTP with the token. */
export async function agent(url: string, name = 'bench-agent'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  await client.listTools();
  return client;
}

/** One timed echo call; the echoed text is checked so a proxy that answers wrongly cannot look fast. */
async function timedCall(client: Client, i: number): Promise<number> {
  const text = `call ${i}`;
  const started = performance.now();
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  const elapsed = performance.now() - started;
  const echoed = toolJson(result as { content?: unknown }).echo;
  if (echoed !== text) throw new Error(`echo ${i} returned ${JSON.stringify(echoed)}`);
  return elapsed;
}

export interface GatewayLatencyResult extends AgainstBaseline {
  readonly calls: number;
  /** The ratio of medians in each block of consecutive calls. */
  readonly blockRatios: BlockRatios;
}

export async function benchGatewayLatency(total = 1000, blocks = 10, warmup = 100): Promise<GatewayLatencyResult> {
  requireFixtures();
  const nobody: Prompter = {
    ask: async (request) => {
      throw new Error(`echo asks nothing, yet "${request.message}" was asked`);
    },
  };
  const ours = await startOurs(nobody);
  const bare = await startBare();
  try {
    const oursClient = await agent(ours.url);
    const bareClient = await agent(bare.url);
    for (let i = 0; i < warmup; i++) {
      await timedCall(bareClient, i);
      await timedCall(oursClient, i);
    }
    // Call by call, the order flipped every call: on a shared machine, load comes and goes
    // within seconds, and only close alternation lets both sides see the same load.
    const oursSamples: number[] = [];
    const bareSamples: number[] = [];
    for (let i = 0; i < total; i++) {
      if (i % 2 === 0) {
        oursSamples.push(await timedCall(oursClient, warmup + i));
        bareSamples.push(await timedCall(bareClient, warmup + i));
      } else {
        bareSamples.push(await timedCall(bareClient, warmup + i));
        oursSamples.push(await timedCall(oursClient, warmup + i));
      }
    }
    const per = Math.ceil(total / blocks);
    const ratios = Array.from({ length: blocks }, (_, b) => median(oursSamples.slice(b * per, (b + 1) * per)) / median(bareSamples.slice(b * per, (b + 1) * per)));
    await Promise.all([oursClient.close(), bareClient.close()]);
    return {
      calls: oursSamples.length,
      ...againstBaseline(oursSamples, bareSamples),
      blockRatios: blockRatios(ratios),
    };
  } finally {
    await ours.close();
    await bare.close();
  }
}

export interface GatewayConcurrencyResult {
  /** The broker's limit of open questions per server, when not the shipped one. */
  maxOpenPerServer: number | 'as shipped';
  agents: number;
  callsPerAgent: number;
  answered: number;
  lost: number;
  wrong: number;
  /** Calls whose question the person saw (each call asks one). */
  questions: number;
  /** Questions the person saw twice for one call. */
  duplicates: number;
  wallMs: number;
  /** The first few failures, in words. */
  failures: string[];
}

const ID_IN_QUESTION = /about: (agent\d+-call\d+-[0-9a-f]{8})$/;

/**
 * `maxOpenPerServer` undefined: the broker as shipped, whose limit of open questions per
 * server counts every agent's questions together; a number: that limit, to see the
 * routing alone.
 */
export async function benchGatewayConcurrency(agents = 5, callsPerAgent = 20, maxOpenPerServer?: number): Promise<GatewayConcurrencyResult> {
  requireFixtures();
  const total = agents * callsPerAgent;
  const asked = new Set<string>();
  const duplicates: string[] = [];
  let endedUnasked = 0;
  const waiting: Array<() => void> = [];
  let released = false;
  // The person answers once every call has asked (or ended without asking), so all the
  // questions are open at once, as with a person who takes a while; then in random order.
  const releaseWhenAllIn = (): void => {
    if (released || asked.size + endedUnasked < total) return;
    released = true;
    for (const answer of waiting.splice(0)) setTimeout(answer, Math.random() * 10);
  };
  // The person reads the call's id in the question and types it back.
  const person: Prompter = {
    ask: async (request) => {
      const id = ID_IN_QUESTION.exec(request.message)?.[1];
      if (!id) throw new Error(`no call id in the question "${request.message}"`);
      if (asked.has(id)) duplicates.push(id);
      asked.add(id);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        releaseWhenAllIn();
      });
      return { action: 'accept', answers: submitted(request, { rating: '5', comments: id }) };
    },
  };
  const ours = await startOurs(person, maxOpenPerServer === undefined ? {} : { maxOpenPerServer });
  const failures: string[] = [];
  let answered = 0;
  let lost = 0;
  let wrong = 0;
  try {
    const clients = await Promise.all(Array.from({ length: agents }, (_, a) => agent(ours.url, `agent ${a + 1}`)));
    const started = performance.now();
    await Promise.all(
      clients.flatMap((client, a) =>
        Array.from({ length: callsPerAgent }, async (_, c) => {
          const id = `agent${a + 1}-call${c + 1}-${randomUUID().slice(0, 8)}`;
          try {
            const result = await client.callTool({ name: 'collect_feedback', arguments: { topic: id } });
            const outcome = toolJson(result as { content?: unknown }) as { action?: string; content?: { comments?: unknown } };
            if (outcome.action === 'accept' && outcome.content?.comments === id) answered++;
            else if (outcome.action === 'accept' && typeof outcome.content?.comments === 'string') {
              wrong++;
              failures.push(`${id} got the answer for ${outcome.content.comments}`);
            } else {
              lost++;
              failures.push(`${id} returned ${JSON.stringify(outcome)}`);
            }
          } catch (error) {
            lost++;
            failures.push(`${id} failed: ${error instanceof Error ? error.message : String(error)}`);
          } finally {
            if (!asked.has(id)) endedUnasked++;
            releaseWhenAllIn();
          }
        }),
      ),
    );
    const wallMs = performance.now() - started;
    for (const id of duplicates) failures.push(`${id} was asked twice`);
    await Promise.all(clients.map((c) => c.close()));
    return { maxOpenPerServer: maxOpenPerServer ?? 'as shipped', agents, callsPerAgent, answered, lost, wrong, questions: asked.size, duplicates: duplicates.length, wallMs: round(wallMs, 1), failures: failures.slice(0, 10) };
  } finally {
    await ours.close();
  }
}
