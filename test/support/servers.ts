/**
 * Starting the fixture servers and connecting to them, for tests and benchmarks. The
 * fixtures are the bundles `npm run build` writes to out/fixtures/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Broker, Prompter } from '../../src/elicitation/broker';
import { InputStore } from '../../src/elicitation/store';
import type { ServerDefinition } from '../../src/mcp/config/config';
import { createBroker } from '../../src/mcp/create-broker';
import { ServerConnection } from '../../src/mcp/connection/connection';
import type { ConnectionSettings, ServerLog, UrlFlow } from '../../src/mcp/ports';

export const REPO = resolve(__dirname, '../..');
export const FIXTURES = join(REPO, 'out/fixtures');

export function requireFixtures(): void {
  if (!existsSync(join(FIXTURES, 'stdio.js'))) {
    throw new Error('The fixture servers are not built: run "npm run build" first (npm run test:integration does it).');
  }
}

export function stdioDefinition(name = 'fixture', env: Record<string, string | null> = {}, args: string[] = []): ServerDefinition {
  requireFixtures();
  return {
    name,
    source: { kind: 'user' },
    config: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'stdio.js'), ...args], env },
  };
}

export interface HttpFixture {
  readonly port: number;
  readonly process: ChildProcess;
  definition(name?: string, type?: 'http' | 'sse', path?: string): ServerDefinition;
  stop(): Promise<void>;
}

/** Starts the HTTP fixture (or another one printing {"port": N}: protected.js) on a free loopback port. */
export async function startHttpFixture(args: string[] = [], env: Record<string, string> = {}, script = 'http.js'): Promise<HttpFixture> {
  requireFixtures();
  const child = spawn(process.execPath, [join(FIXTURES, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolvePort, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolvePort((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited with code ${code}: ${stderr}`)));
  });
  return {
    port,
    process: child,
    definition: (name = 'http-fixture', type = 'http', path = type === 'sse' ? '/sse' : '/mcp') => ({
      name,
      source: { kind: 'user' },
      config: { type, url: `http://127.0.0.1:${port}${path}`, headers: {} },
    }),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** The demo workspace's HTTP server (`npm start`, the README's screenshots): the tools worth trying, not the test-only ones. */
export function startDemoHttpServer(): Promise<HttpFixture> {
  return startHttpFixture(['--only', 'book_restaurant,collect_feedback,pick_instruments,plan_trip,one_question,review_change,echo']);
}

export const DEFAULT_SETTINGS: ConnectionSettings = {
  urlMode: true,
  applyDefaults: true,
  toolTimeoutMs: 60_000,
  elicitationTimeoutMs: 0,
  maxRounds: 5,
};

export class MemoryLog implements ServerLog {
  readonly lines: string[] = [];
  traceEnabled = false;
  info(m: string): void { this.lines.push(`info ${m}`); }
  warn(m: string): void { this.lines.push(`warn ${m}`); }
  error(m: string): void { this.lines.push(`error ${m}`); }
  trace(m: string): void { this.lines.push(`trace ${m}`); }
  stderr(m: string): void { this.lines.push(`stderr ${m}`); }
}

/** A person who finishes in the browser (or cancels), as the script says; records what the flow told them. */
export class ScriptedUrlFlow implements UrlFlow {
  readonly waited: string[] = [];
  readonly completions: Array<{ server: string; message: string }> = [];
  /** true: says "finished"; false: cancels; 'never': neither (only the signal ends the wait). */
  finish: boolean | 'never' = true;

  async finishedInBrowser(_source: unknown, url: string, signal: AbortSignal): Promise<boolean> {
    this.waited.push(url);
    if (this.finish === 'never') {
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true }));
    }
    await new Promise((r) => setTimeout(r, 10));
    return this.finish;
  }

  completed(server: string, message: string): void {
    this.completions.push({ server, message });
  }
}

export interface Host {
  readonly store: InputStore;
  readonly urlFlow: ScriptedUrlFlow;
  readonly broker: Broker;
  connect(definition: ServerDefinition, settings?: Partial<ConnectionSettings>): Promise<ServerConnection>;
  /** A connection that has not started yet (closed by `closeAll` like the others). */
  connection(definition: ServerDefinition, settings?: Partial<ConnectionSettings>): ServerConnection;
  log: MemoryLog;
  closeAll(): Promise<void>;
}

/** Our host's middle (store, broker, validation) with connections to fixture servers. */
export interface HostOptions {
  readonly onLinkRefused?: (source: unknown, url: string, reason: string) => void;
  /** The workspace folders, read whenever a server asks (default: one folder, file:///workspace). */
  readonly roots?: () => ReadonlyArray<{ uri: string; name: string }>;
  /** The broker's limit of open questions per server (default: the product's). */
  readonly maxOpenPerServer?: number;
}

export function createHost(prompter: Prompter, options: HostOptions = {}): Host {
  const store = new InputStore();
  const broker = createBroker({
    store,
    prompter,
    ...(options.maxOpenPerServer !== undefined && { maxOpenPerServer: options.maxOpenPerServer }),
    ...(options.onLinkRefused && { onLinkRefused: options.onLinkRefused }),
  });
  const connections: ServerConnection[] = [];
  const log = new MemoryLog();
  const urlFlow = new ScriptedUrlFlow();
  const connection = (definition: ServerDefinition, settings: Partial<ConnectionSettings> = {}): ServerConnection => {
    const created = new ServerConnection(definition, {
      broker,
      log,
      settings: () => ({ ...DEFAULT_SETTINGS, ...settings }),
      roots: options.roots ?? (() => [{ uri: 'file:///workspace', name: 'workspace' }]),
      clientInfo: { name: 'elicitation-host-tests', version: '0.0.0' },
      urlFlow,
      reconnectDelaysMs: [200],
    });
    connections.push(created);
    return created;
  };
  return {
    store,
    urlFlow,
    broker,
    log,
    async connect(definition, settings = {}) {
      const created = connection(definition, settings);
      await created.start();
      return created;
    },
    connection,
    async closeAll() {
      await Promise.all(connections.map((c) => c.stop()));
    },
  };
}

/**
 * Runs `body` against a fresh host (see `createHost`) and always closes its connections
 * afterwards, whether the body passes or throws.
 */
export async function withHost<T>(prompter: Prompter, body: (host: Host) => Promise<T>): Promise<T>;
export async function withHost<T>(prompter: Prompter, options: HostOptions, body: (host: Host) => Promise<T>): Promise<T>;
export async function withHost<T>(prompter: Prompter, ...rest: [(host: Host) => Promise<T>] | [HostOptions, (host: Host) => Promise<T>]): Promise<T> {
  const [options, body] = rest.length === 1 ? [{}, rest[0]] : rest;
  const host = createHost(prompter, options);
  try {
    return await body(host);
  } finally {
    await host.closeAll();
  }
}

/** The JSON a fixture tool returned as its text content. */
export function toolJson(result: { content?: unknown }): Record<string, unknown> {
  const content = result.content as Array<{ type: string; text?: string }>;
  return JSON.parse(content[0].text ?? 'null') as Record<string, unknown>;
}
