/**
 * The arguments of `elicitation-host serve` (serve-main.ts runs it):
 *
 *   elicitation-host serve [--port P] [--token T] [--answers F | --accept-defaults | --decline] [--json] -- <command> [args...]
 *   elicitation-host serve [options] <server-url>
 */
import { TOKEN_VARIABLE } from '../gateway/contract';

export const SERVE_USAGE = `Usage:
  elicitation-host serve [options] -- <command> [args...]
  elicitation-host serve [options] <server-url>

Serves the MCP server to agents at http://127.0.0.1:<port>/mcp/<name> and answers its
questions here. Agents send Authorization: Bearer <token>.

Options:
  --port P             listen on this port (default: a free one)
  --token T            the token agents must send (default: $${TOKEN_VARIABLE})
  --name N             the server's name (default: the script or the URL's host)
  --answers FILE       a JSON array of ElicitResult objects, used in order
  --accept-defaults    accept every form with its defaults
  --decline            decline every question
  --json               print JSON lines
  -h, --help           this help

Without --answers, --accept-defaults or --decline, questions are asked on the console;
without a terminal, forms are cancelled. Questions from terminals (elicitation-host ask
and acp-proxy, with ELICITATION_HOST_MCP_URL=http://127.0.0.1:<port> and the token) are
answered here the same way. Stops on Ctrl-C (SIGINT) or SIGTERM.`;

export class ServeUsageError extends Error {}

export interface ServeOptions {
  readonly target: { readonly kind: 'url'; readonly url: string } | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] };
  readonly port?: number;
  readonly token?: string;
  readonly name?: string;
  readonly answersFile?: string;
  readonly acceptDefaults: boolean;
  readonly decline: boolean;
  readonly json: boolean;
}

/** Parses the arguments after `serve`. */
export function parseServeArgs(argv: readonly string[]): ServeOptions | 'help' {
  const dashDash = argv.indexOf('--');
  // `--port=P` reads as `--port P`, as the runner's other commands accept.
  const before = (dashDash >= 0 ? argv.slice(0, dashDash) : [...argv]).flatMap((a) =>
    /^--[a-z-]+=/.test(a) ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a],
  );
  const after = dashDash >= 0 ? argv.slice(dashDash + 1) : [];
  if (before.includes('-h') || before.includes('--help')) return 'help';
  const positional: string[] = [];
  let port: number | undefined;
  let token: string | undefined;
  let name: string | undefined;
  let answersFile: string | undefined;
  let acceptDefaults = false;
  let decline = false;
  let json = false;
  for (let i = 0; i < before.length; i++) {
    const arg = before[i];
    const value = (): string => {
      const next = before[++i];
      if (next === undefined) throw new ServeUsageError(`${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '--port': {
        const text = value();
        port = Number(text);
        if (!/^\d+$/.test(text) || port > 65535) throw new ServeUsageError(`--port must be a port number, not ${text}`);
        break;
      }
      case '--token':
        token = value();
        break;
      case '--name':
        name = value();
        break;
      case '--answers':
        answersFile = value();
        break;
      case '--accept-defaults':
        acceptDefaults = true;
        break;
      case '--decline':
        decline = true;
        break;
      case '--json':
        json = true;
        break;
      default:
        if (arg.startsWith('--')) throw new ServeUsageError(`unknown option ${arg}`);
        positional.push(arg);
    }
  }
  if ([answersFile !== undefined, acceptDefaults, decline].filter(Boolean).length > 1) {
    throw new ServeUsageError('use only one of --answers, --accept-defaults and --decline');
  }
  let target: ServeOptions['target'];
  if (dashDash >= 0) {
    if (after.length === 0) throw new ServeUsageError('a command must follow --');
    if (positional.length > 0) throw new ServeUsageError(`unexpected ${positional.join(' ')}`);
    target = { kind: 'stdio', command: after[0], args: after.slice(1) };
  } else {
    if (positional.length !== 1) throw new ServeUsageError('serve takes one server URL, or a command after --');
    try {
      new URL(positional[0]);
    } catch {
      throw new ServeUsageError(`${positional[0]} is not a URL`);
    }
    target = { kind: 'url', url: positional[0] };
  }
  return {
    target,
    ...(port !== undefined && { port }),
    ...(token !== undefined && { token }),
    ...(name !== undefined && { name }),
    ...(answersFile !== undefined && { answersFile }),
    acceptDefaults,
    decline,
    json,
  };
}
