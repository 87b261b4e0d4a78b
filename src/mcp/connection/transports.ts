/**
 * Reaching a server: the transport its definition asks for (stdio; Streamable HTTP falling
 * back to legacy SSE; SSE), a stdio server's environment and working directory, and the
 * handshake. Every attempt gets a new client and its own wire tap; a failed attempt's
 * client is closed here, so nothing of it outlives the attempt.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { ServerConfig, ServerDefinition, StdioServerConfig } from '../config/config';
import { answersLikeLegacySse, describeHttpFailure } from '../errors';
import { errorMessage } from '../../base/error-message';
import type { ServerLog } from '../ports';
import { ProcessWatch } from './process-watch';
import type { Sdk } from '../sdk/sdk-loader';
import { type ServerSignIn, SignInRequiredError, withSignIn } from '../sign-in/sign-in';
import { WireTap } from './wire-tap';

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

/** A connected client with what watches it. */
export interface Connected {
  readonly client: Client;
  readonly kind: TransportKind;
  readonly tap: WireTap;
  /** Only for stdio: the server's process. */
  readonly process?: ProcessWatch;
}

/** Why a stdio connect failed, with the process it started (to say how it ended). */
export class StdioStartError extends Error {
  constructor(
    readonly cause: unknown,
    readonly process: ProcessWatch,
  ) {
    super(errorMessage(cause));
    this.name = 'StdioStartError';
  }
}

export interface ConnectRequest {
  readonly sdk: Sdk;
  readonly definition: ServerDefinition;
  /** A new client with every handler installed (one per attempt). */
  newClient(): Client;
  /** Called for each client before it connects, so close and error handlers know it. */
  attach(client: Client): void;
  readonly log: ServerLog;
  /** Applied to every stderr line before it is kept (secrets out). */
  readonly redact: (text: string) => string;
  /** Ends the handshake early (the server was stopped while it started). */
  readonly signal: AbortSignal;
  /** An HTTP server's sign-in (OAuth): its tokens go with every request, a 401 starts it. */
  readonly signIn?: ServerSignIn;
}

/**
 * A stdio server's environment, as `mcp.json` means it: the SDK's default environment
 * (`getDefaultEnvironment`: PATH, HOME, USER... and nothing else of the extension host's),
 * with the definition's `env` over it. The definition arrives resolved, its env file
 * already merged under `env`. `null` removes a variable: passed as undefined, which the
 * process spawn drops, so it also removes one the SDK's defaults would have added.
 */
export function stdioEnvironment(config: StdioServerConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, v ?? undefined])) as Record<string, string>;
}

/**
 * Where a stdio server runs: its `cwd`, or else, for a server a workspace's mcp.json
 * defines, that workspace folder (so `node server.js` finds the workspace's file).
 */
export function workingDirectory(definition: ServerDefinition): string | undefined {
  const { config, source } = definition;
  if (config.type !== 'stdio') return undefined;
  return config.cwd ?? (source.kind === 'workspace' ? source.folder : undefined);
}

export function isHttp(config: ServerConfig): boolean {
  return config.type !== 'stdio';
}

export async function connect(request: ConnectRequest): Promise<Connected> {
  const { sdk, definition, log } = request;
  const config = definition.config;
  if (config.type === 'stdio') {
    const cwd = workingDirectory(definition);
    const transport = new sdk.StdioClientTransport({
      command: config.command,
      args: [...config.args],
      env: stdioEnvironment(config),
      ...(cwd !== undefined && { cwd }),
      stderr: 'pipe',
    });
    const watch = new ProcessWatch(transport, log, request.redact);
    try {
      return { ...(await attempt(request, transport)), kind: 'stdio', process: watch };
    } catch (error) {
      throw new StdioStartError(error, watch);
    }
  }
  const url = new URL(config.url);
  const { signIn } = request;
  // Read at each attempt: a 2025-03-26 server's issuer is learnt on the way (sign-in.ts).
  const options = () => ({ requestInit: { headers: { ...config.headers } }, ...(signIn && { authProvider: signIn, skipIssuerMetadataValidation: signIn.legacyIssuer }) });
  // A server that needs a sign-in refuses the handshake until it is done: then the handshake runs again.
  const authorized = <T>(operation: () => Promise<T>): Promise<T> => withSignIn(signIn, sdk, request.signal, operation);
  if (config.type === 'sse') return { ...(await authorized(() => attempt(request, new sdk.SSEClientTransport(url, options())))), kind: 'sse' };
  try {
    return { ...(await authorized(() => attempt(request, new sdk.StreamableHTTPClientTransport(url, options())))), kind: 'streamable-http' };
  } catch (streamableError) {
    // A server that predates Streamable HTTP refuses the POST with a 4xx status (404, 405...):
    // try legacy SSE. Anything else (unreachable, 5xx, authorization) is the real answer.
    if (streamableError instanceof SignInRequiredError) throw streamableError;
    if (request.signal.aborted || !answersLikeLegacySse(streamableError)) {
      throw new Error(describeHttpFailure(url, streamableError), { cause: streamableError });
    }
    log.info(`Streamable HTTP failed (${errorMessage(streamableError)}); trying legacy SSE`);
    try {
      return { ...(await authorized(() => attempt(request, new sdk.SSEClientTransport(url, options())))), kind: 'sse' };
    } catch (sseError) {
      throw new Error(`${errorMessage(streamableError)} (and as legacy SSE: ${errorMessage(sseError)})`, { cause: sseError });
    }
  }
}

async function attempt(request: ConnectRequest, transport: Transport): Promise<{ client: Client; tap: WireTap }> {
  const client = request.newClient();
  const tap = new WireTap(transport, request.log);
  request.attach(client);
  try {
    await client.connect(transport, { signal: request.signal });
  } catch (error) {
    tap.dispose();
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, tap };
}
