/**
 * The one server connection a headless command (`call`, `call-all`, `serve`) makes: the
 * runner's broker and log, the current directory as its root, links answered on the
 * console, no reconnects, and a question the client refused failing the run.
 */
import { pathToFileURL } from 'node:url';
import type { Broker } from '../elicitation/broker';
import { sourceLabel } from '../elicitation/request';
import type { ServerDefinition } from '../mcp/config/config';
import { ServerConnection } from '../mcp/connection/connection';
import type { ConnectionDeps, ServerLog } from '../mcp/ports';
import { consoleUrlFlow } from './console-prompter';
import { ExitCode, type RunVerdict } from './exit-code';
import type { Output } from './output';

export interface RunnerConnectionOptions {
  readonly broker: Broker;
  readonly log: ServerLog;
  readonly out: Output;
  readonly verdict: RunVerdict;
  /** Ours as the server sees it (`elicitation-host-cli`, `elicitation-host-serve`). */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** 0: no limit (a served agent's call ends when the agent's does). */
  readonly toolTimeoutMs: number;
  readonly signIn?: ConnectionDeps['signIn'];
  readonly relaySampling?: boolean;
}

export function runnerConnection(definition: ServerDefinition, options: RunnerConnectionOptions): ServerConnection {
  const { out, verdict } = options;
  return new ServerConnection(definition, {
    ...(options.signIn && { signIn: options.signIn }),
    broker: options.broker,
    log: options.log,
    settings: () => ({ urlMode: true, applyDefaults: true, toolTimeoutMs: options.toolTimeoutMs, elicitationTimeoutMs: 0, maxRounds: 5 }),
    roots: () => [{ uri: pathToFileURL(process.cwd()).href, name: 'cwd' }],
    clientInfo: options.clientInfo,
    urlFlow: consoleUrlFlow(out),
    reconnectDelaysMs: [],
    ...(options.relaySampling && { relaySampling: true }),
    onElicitationRefused: (source, refusal) => {
      // The server got the error and its tool may still return a fine result: the run must not pass.
      verdict.note(ExitCode.failure);
      out.error(`${sourceLabel(source)} sent a question this client refused (${refusal.code}): ${refusal.message}`, {
        server: source.server, tool: source.tool ?? null, code: refusal.code,
      });
    },
  });
}
