/**
 * Command line of `elicitation-host mcp-bridge`: one of the window's served servers over
 * stdio, named by its name (the window's address from ELICITATION_HOST_MCP_URL) or by its
 * whole address, which must be http on this machine: the token is sent nowhere else.
 */
import { MCP_PREFIX, TOKEN_VARIABLE, URL_VARIABLE } from '../gateway/contract';

import { UsageError } from './exit-code';

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

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The endpoint to reach, from the argument and the environment; throws naming what is wrong. */
export function bridgeTarget(argument: string, env: Readonly<Record<string, string | undefined>>): URL {
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(argument)) {
    try {
      url = new URL(argument);
    } catch {
      throw new UsageError(`not a URL: ${JSON.stringify(argument)}`);
    }
  } else {
    const base = env[URL_VARIABLE];
    if (!base) throw new UsageError(`${URL_VARIABLE} is not set: give the server's whole address, or run this from a VS Code terminal`);
    try {
      url = new URL(`${MCP_PREFIX}${encodeURIComponent(argument)}`, base);
    } catch {
      throw new UsageError(`${URL_VARIABLE} is not a URL: ${JSON.stringify(base)}`);
    }
  }
  if (url.protocol !== 'http:' || !LOOPBACK_NAMES.has(url.hostname)) {
    throw new UsageError(`the address must be http on this machine (127.0.0.1), not ${url.origin}: the token is not sent anywhere else`);
  }
  return url;
}

/** The endpoint the one argument names, or 'help'. */
export function parseMcpBridgeArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): URL | 'help' {
  if (argv.includes('-h') || argv.includes('--help')) return 'help';
  if (argv.length !== 1 || argv[0].startsWith('-')) throw new UsageError('give one server name or address');
  return bridgeTarget(argv[0], env);
}
