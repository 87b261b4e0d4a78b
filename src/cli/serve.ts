/**
 * `elicitation-host serve`: the gateway without VS Code. Serves one MCP server (a command
 * run over stdio, or a Streamable HTTP URL) on 127.0.0.1 to agents, and answers the
 * server's questions the way `call` does: from an answers file, with defaults, by
 * declining, or on the console. It gives clients without elicitation the servers that
 * need it, and tests the gateway in CI.
 *
 *   elicitation-host serve [--port P] [--token T] [--answers F | --accept-defaults | --decline] [--json] -- <command> [args...]
 *   elicitation-host serve [options] <server-url>
 *
 * The token is `--token`, else ELICITATION_HOST_MCP_TOKEN; it is never printed.
 */
import { pathToFileURL } from 'node:url';
import { sourceLabel } from '../elicitation/request';
import { Gateway } from '../gateway/gateway';
import { TOKEN_VARIABLE } from '../gateway/contract';
import type { ServerDefinition } from '../mcp/config/config';
import { ServerConnection } from '../mcp/connection/connection';
import { connectionUpstream } from '../mcp/servers/upstream';
import { ExitCode, optionsOrExit, RunVerdict } from './exit-code';
import { choosePrompter } from './choose-prompter';
import { consoleUrlFlow } from './console-prompter';
import { createOutput, type Output } from './output';
import { runnerHost } from './runner-host';

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

/** The served server's definition: named by `--name`, the script a command runs, or the URL's host. */
export function serveDefinition(options: ServeOptions): ServerDefinition {
  const { target } = options;
  if (target.kind === 'url') {
    return { name: options.name ?? new URL(target.url).host, source: { kind: 'user' }, config: { type: 'http', url: target.url, headers: {} } };
  }
  const runs = target.args.find((a) => !a.startsWith('-')) ?? target.command;
  const script = runs.split(/[\\/]/).pop()?.replace(/\.[cm]?[jt]s$/, '') || target.command;
  return { name: options.name ?? script, source: { kind: 'user' }, config: { type: 'stdio', command: target.command, args: [...target.args], env: {} } };
}

export interface ServeDeps {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly out?: Output;
  readonly version?: string;
}

export interface RunningServe {
  readonly gateway: Gateway;
  readonly connection: ServerConnection;
  readonly verdict: RunVerdict;
  stop(): Promise<void>;
}

/** Starts serving; resolves once the gateway listens (the server itself starts on first use). */
export async function startServe(options: ServeOptions, deps: ServeDeps): Promise<RunningServe> {
  const env = deps.env ?? process.env;
  const token = options.token ?? env[TOKEN_VARIABLE];
  if (!token) throw new ServeUsageError(`no token: set ${TOKEN_VARIABLE} or pass --token`);
  const out = deps.out ?? createOutput(options.json);
  const verdict = new RunVerdict();
  const prompter = choosePrompter(options, out, verdict, (message) => new ServeUsageError(message));
  const { store, broker, log } = runnerHost(prompter, out, { printErrors: true });
  const definition = serveDefinition(options);
  const connection = new ServerConnection(definition, {
    broker,
    log,
    settings: () => ({ urlMode: true, applyDefaults: true, toolTimeoutMs: 0, elicitationTimeoutMs: 0, maxRounds: 5 }),
    roots: () => [{ uri: pathToFileURL(process.cwd()).href, name: 'cwd' }],
    clientInfo: { name: 'elicitation-host-serve', version: deps.version ?? '0.1.0' },
    urlFlow: consoleUrlFlow(out),
    reconnectDelaysMs: [],
    relaySampling: true,
    onElicitationRefused: (source, refusal) => {
      verdict.note(ExitCode.failure);
      out.error(`${sourceLabel(source)} sent a question this client refused (${refusal.code}): ${refusal.message}`, { server: source.server, code: refusal.code });
    },
  });
  const upstream = connectionUpstream(connection);
  const gateway = await Gateway.start({
    upstreams: { list: () => [upstream], onDidChange: () => () => undefined },
    token: () => token,
    ...(options.port !== undefined && { port: options.port, strictPort: true }),
    broker,
    store,
    version: deps.version ?? '0.1.0',
    log: (message) => out.error(message),
  });
  const served = gateway.servers()[0];
  out.line(`Serving ${definition.name} at ${served.url} (agents send Authorization: Bearer $${TOKEN_VARIABLE}); Ctrl-C stops`, {
    type: 'serving',
    server: definition.name,
    url: served.url,
    port: gateway.port,
    permissionHook: gateway.permissionHookUrl,
    permissionServer: gateway.permissionServerUrl,
    ask: gateway.askUrl,
  });
  return {
    gateway,
    connection,
    verdict,
    async stop() {
      await gateway.close();
      await connection.stop();
    },
  };
}

/** The command: serves until SIGINT or SIGTERM, then exits with the run's verdict. */
export async function serveMain(argv: readonly string[], deps: ServeDeps): Promise<number> {
  const parsed = optionsOrExit(argv, parseServeArgs, SERVE_USAGE);
  if ('exit' in parsed) return parsed.exit;
  const options: ServeOptions = parsed.options;
  let running: RunningServe;
  try {
    running = await startServe(options, deps);
  } catch (error) {
    (deps.out ?? createOutput(options.json)).error((error as Error).message);
    return ExitCode.failure;
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.stop();
  return running.verdict.exitCode;
}
