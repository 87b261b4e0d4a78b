/**
 * `elicitation-host serve`: the gateway without VS Code. Serves one MCP server (a command
 * run over stdio, or a Streamable HTTP URL) on 127.0.0.1 to agents, and answers the
 * server's questions the way `call` does: from an answers file, with defaults, by
 * declining, or on the console. It gives clients without elicitation the servers that
 * need it, and tests the gateway in CI. Its arguments: serve-args.ts.
 *
 * The token is `--token`, else ELICITATION_HOST_MCP_TOKEN; it is never printed.
 */
import { Gateway } from '../gateway/gateway';
import { TOKEN_VARIABLE } from '../gateway/contract';
import type { ServerDefinition } from '../mcp/config/config';
import type { ServerConnection } from '../mcp/connection/connection';
import { connectionUpstream } from '../mcp/servers/upstream';
import { ExitCode, optionsOrExit, RunVerdict } from './exit-code';
import { parseServeArgs, SERVE_USAGE, type ServeOptions, ServeUsageError } from './serve-args';
import { choosePrompter } from './choose-prompter';
import { createOutput, type Output } from './output';
import { runnerConnection } from './runner-connection';
import { runnerHost } from './runner-host';

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
  /** Ours, as the served servers and the client report it (the runner's: the package's). */
  readonly version: string;
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
  const connection = runnerConnection(definition, {
    broker,
    log,
    out,
    verdict,
    clientInfo: { name: 'elicitation-host-serve', version: deps.version },
    toolTimeoutMs: 0,
    relaySampling: true,
  });
  const upstream = connectionUpstream(connection);
  const gateway = await Gateway.start({
    upstreams: { list: () => [upstream], onDidChange: () => () => undefined },
    token: () => token,
    ...(options.port !== undefined && { port: options.port, strictPort: true }),
    broker,
    store,
    version: deps.version,
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
