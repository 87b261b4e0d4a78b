/**
 * `elicitation-host mcp-bridge`: one of the window's served servers as a stdio MCP server,
 * for an agent that runs MCP servers only as commands (an ACP agent without
 * `mcpCapabilities.http`; any client that reads `.mcp.json`). Each message is passed as it
 * is, stdin to the gateway's endpoint and back (the SDK's stdio and Streamable HTTP
 * transports do the framing), so the gateway sees the agent's own requests and answers the
 * server's questions in the window as for any agent.
 *
 *   elicitation-host mcp-bridge <server>    ($ELICITATION_HOST_MCP_URL/mcp/<server>)
 *   elicitation-host mcp-bridge <url>       (http://127.0.0.1:PORT/mcp/<server>)
 *
 * The token comes from ELICITATION_HOST_MCP_TOKEN in its environment only: never from its
 * command line (other users' `ps` shows it) nor from a file. It is sent nowhere but an http
 * address on this machine.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { terminalSafe } from '../elicitation/plain-text';
import { isRecord } from '../elicitation/is-record';
import { TOKEN_VARIABLE, URL_VARIABLE } from '../gateway/agent-setup';
import { MCP_PREFIX } from '../gateway/gateway';
import { requireSdk, serverSdk } from '../mcp/sdk/sdk-loader';

export const MCP_BRIDGE_USAGE = `Usage:
  elicitation-host mcp-bridge <server>
  elicitation-host mcp-bridge <url>

Serves one of the VS Code window's servers over stdio: what an agent writes to its stdin
goes to the window's gateway (${URL_VARIABLE}/mcp/<server>, or the http://127.0.0.1 address
given), and the answers come back on stdout; the server's questions are asked in the
window. The token is read from ${TOKEN_VARIABLE} in the environment only, never from the
command line. Ends when stdin closes.

Options:
  -h, --help   this help`;

/** Where the bridge reads and writes (tests give their own). */
export interface BridgeDeps {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  readonly stderr?: Writable;
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

export class BridgeUsageError extends Error {}

/** The endpoint to reach, from the argument and the environment; throws naming what is wrong. */
export function bridgeTarget(argument: string, env: Readonly<Record<string, string | undefined>>): URL {
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(argument)) {
    try {
      url = new URL(argument);
    } catch {
      throw new BridgeUsageError(`not a URL: ${JSON.stringify(argument)}`);
    }
  } else {
    const base = env[URL_VARIABLE];
    if (!base) throw new BridgeUsageError(`${URL_VARIABLE} is not set: give the server's whole address, or run this from a VS Code terminal`);
    try {
      url = new URL(`${MCP_PREFIX}${encodeURIComponent(argument)}`, base);
    } catch {
      throw new BridgeUsageError(`${URL_VARIABLE} is not a URL: ${JSON.stringify(base)}`);
    }
  }
  if (url.protocol !== 'http:' || !LOOPBACK_NAMES.has(url.hostname)) {
    throw new BridgeUsageError(`the address must be http on this machine (127.0.0.1), not ${url.origin}: the token is not sent anywhere else`);
  }
  return url;
}

/** What the gateway said, from a failed POST (its body is a JSON-RPC error), else the error's own words. */
function gatewayWords(error: unknown): string {
  const text = isRecord(error) && isRecord(error.data) && typeof error.data.text === 'string' ? error.data.text : undefined;
  if (text) {
    try {
      const body: unknown = JSON.parse(text);
      if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
    } catch {
      // Not JSON: the error's own message says it.
    }
  }
  return error instanceof Error ? error.message : String(error);
}

function requestId(message: JSONRPCMessage): string | number | undefined {
  const { id, method } = message as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
}

export async function mcpBridgeMain(argv: readonly string[], deps: BridgeDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const stderr = deps.stderr ?? process.stderr;
  const say = (line: string): void => void stderr.write(`elicitation-host mcp-bridge: ${terminalSafe(line)}\n`);
  if (argv.includes('-h') || argv.includes('--help')) {
    (deps.stdout ?? process.stdout).write(`${MCP_BRIDGE_USAGE}\n`);
    return 0;
  }
  let url: URL;
  try {
    if (argv.length !== 1 || argv[0].startsWith('-')) throw new BridgeUsageError('give one server name or address');
    url = bridgeTarget(argv[0], env);
    if (!env[TOKEN_VARIABLE]) throw new BridgeUsageError(`${TOKEN_VARIABLE} is not set in the environment (the token is read from there only)`);
  } catch (error) {
    if (!(error instanceof BridgeUsageError)) throw error;
    say(`${error.message}\n\n${MCP_BRIDGE_USAGE}`);
    return 2;
  }
  const token = env[TOKEN_VARIABLE]!;
  const http = new (requireSdk().StreamableHTTPClientTransport)(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const stdio = new (serverSdk().StdioServerTransport)(deps.stdin, deps.stdout);
  /** The agent's `initialize` requests: their answers carry the version the HTTP side must then name. */
  const handshakes = new Set<string | number>();

  http.onmessage = (message) => {
    const id = (message as { id?: unknown }).id;
    const result = (message as { result?: unknown }).result;
    if ((typeof id === 'string' || typeof id === 'number') && handshakes.delete(id) && isRecord(result) && typeof result.protocolVersion === 'string') {
      http.setProtocolVersion(result.protocolVersion);
    }
    void stdio.send(message).catch((error: unknown) => say(`could not write to the agent: ${gatewayWords(error)}`));
  };
  http.onerror = (error) => {
    if ((error as { name?: unknown }).name !== 'AbortError') say(gatewayWords(error));
  };
  stdio.onmessage = (message) => {
    const id = requestId(message);
    if (id !== undefined && (message as { method?: unknown }).method === 'initialize') handshakes.add(id);
    http.send(message).catch((error: unknown) => {
      // A request the gateway refused (a wrong token, a server no longer served) is answered, so the agent is not left waiting.
      if (id === undefined) return;
      void stdio.send({ jsonrpc: '2.0', id, error: { code: -32000, message: `Elicitation Host's gateway: ${gatewayWords(error)}` } }).catch(() => undefined);
    });
  };
  const ended = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
  });
  const stop = (): void => void stdio.close();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
  try {
    await http.start();
    await stdio.start();
    await ended;
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, stop);
    // The session ends with the agent's use of it; a gateway already gone is not worth a word.
    await http.terminateSession().catch(() => undefined);
    await http.close().catch(() => undefined);
  }
  return 0;
}
