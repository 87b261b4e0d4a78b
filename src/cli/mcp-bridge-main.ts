/**
 * `elicitation-host mcp-bridge`: one of the window's served servers as a stdio MCP server,
 * for an agent that runs MCP servers only as commands (an ACP agent without
 * `mcpCapabilities.http`; a client that reads `.mcp.json`). Each message is passed as it is,
 * stdin to the gateway's endpoint and back (the SDK's stdio and Streamable HTTP transports do
 * the framing), so the gateway sees the agent's own requests and asks the server's questions
 * in the window as for any agent. The token comes from ELICITATION_HOST_MCP_TOKEN in its
 * environment only: never from its command line (other users' `ps` shows it) nor a file.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isRecord } from '../base/is-record';
import { errorMessage } from '../base/error-message';
import { terminalSafe } from '../elicitation/plain-text';
import { TOKEN_VARIABLE } from '../gateway/contract';
import { requireSdk, serverSdk } from '../mcp/sdk/sdk-loader';
import { optionsOrExit, UsageError } from './exit-code';
import { MCP_BRIDGE_USAGE, parseMcpBridgeArgs } from './mcp-bridge-args';

/** Where the bridge reads and writes (tests give their own). */
export interface BridgeDeps {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  readonly stderr?: Writable;
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
  return errorMessage(error);
}

function requestId(message: JSONRPCMessage): string | number | undefined {
  const { id, method } = message as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
}

export async function mcpBridgeMain(argv: readonly string[], deps: BridgeDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const stderr = deps.stderr ?? process.stderr;
  const say = (line: string): void => void stderr.write(`elicitation-host mcp-bridge: ${terminalSafe(line)}\n`);
  const parsed = optionsOrExit(argv, (args) => {
    const target = parseMcpBridgeArgs(args, env);
    if (target !== 'help' && !env[TOKEN_VARIABLE]) throw new UsageError(`${TOKEN_VARIABLE} is not set in the environment (the token is read from there only)`);
    return target;
  }, MCP_BRIDGE_USAGE);
  if ('exit' in parsed) return parsed.exit;
  const url = parsed.options;
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
