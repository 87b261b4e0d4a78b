/**
 * `elicitation-host ahp`: a thin renderer over src/ahp's inbox. Connects to the agent host,
 * answers its open questions as `call` answers forms (an answers file, defaults, declining,
 * the console) and prints each with who asked and the answer; what the host withdraws, and
 * why, is printed too. Without --watch it answers what was open when it connected and exits.
 */
import { readFileSync } from 'node:fs';
import { parseEndpoint, type Endpoint } from '../ahp/endpoint';
import { AhpError } from '../ahp/errors';
import { AgentHostInbox, type InboxEvents } from '../ahp/inbox';
import type { Prompter } from '../elicitation/broker';
import { sourceLabel } from '../elicitation/request';
import { type AhpOptions, AHP_USAGE, parseAhpArgs } from './ahp-args';
import { choosePrompter } from './choose-prompter';
import { ExitCode, optionsOrExit, RunVerdict, UsageError } from './exit-code';
import { createOutput, type Output } from './output';
import { runnerHost } from './runner-host';

/** The token from its file or variable (never printed: errors name where it should have been). */
function readToken(token: AhpOptions['token']): string | undefined {
  if (!token) return undefined;
  if ('file' in token) {
    let text: string;
    try {
      text = readFileSync(token.file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read the token file ${token.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (text.trim() === '') throw new UsageError(`the token file ${token.file} is empty`);
    return text.trim();
  }
  const value = process.env[token.env];
  if (value === undefined || value.trim() === '') throw new UsageError(`the environment variable ${token.env} holds no token`);
  return value.trim();
}

function endpointOf(url: string): Endpoint {
  let parsed;
  try {
    parsed = parseEndpoint(url);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.tokenInUrl !== undefined) throw new UsageError('the URL carries the token (?tkn=): other processes can read the command line; put the token in --token-file F or --token-env NAME and give the URL without it');
  return parsed.endpoint;
}

/** Matches a session by its URI or by the id after its provider (claude:/ID). */
function sessionFilter(id: string | undefined): ((uri: string) => boolean) | undefined {
  if (id === undefined) return undefined;
  return (uri) => uri === id || uri.endsWith(`/${id}`);
}

function events(out: Output, verdict: RunVerdict, host: string, closed: (error?: AhpError) => void): InboxEvents {
  return {
    connected: (protocolVersion) => out.line(`connected to the agent host at ${host} (AHP ${protocolVersion})`, { type: 'connected', host, protocolVersion }),
    answered: (item, outcome) => {
      if (item.kind !== 'tool') return;
      if (outcome === 'denied') verdict.note(ExitCode.permissionRefused);
      out.line(`  tool call ${item.id}: ${outcome}`, { type: 'tool_call', id: item.id, session: item.session, outcome });
    },
    withdrawn: (item, reason) => out.line(`× ${sourceLabel(item.source)}: ${reason}`, { type: 'withdrawn', kind: item.kind, id: item.id, session: item.session, reason }),
    refused: (item, reason) => {
      verdict.note(ExitCode.unanswered);
      out.error(item ? `${sourceLabel(item.source)}: not asked: ${reason}` : reason, { ...(item && { id: item.id, session: item.session }) });
    },
    status: (status, error) => {
      if (status === 'reconnecting') out.line(`… the connection dropped; reconnecting${error ? ` (${error.message})` : ''}`, { type: 'status', status });
      else if (status === 'connected') out.line('… reconnected', { type: 'status', status });
      else closed(error);
    },
  };
}

export async function ahpMain(argv: readonly string[], meta: { readonly version: string }): Promise<number> {
  const parsed = optionsOrExit(argv, parseAhpArgs, AHP_USAGE);
  if ('exit' in parsed) return parsed.exit;
  const options = parsed.options;
  const out = createOutput(options.json);
  const verdict = new RunVerdict();
  let prompter: Prompter;
  let endpoint: Endpoint;
  let token: string | undefined;
  try {
    prompter = choosePrompter(options, out, verdict, (message) => new UsageError(message));
    endpoint = endpointOf(options.url);
    token = readToken(options.token);
  } catch (error) {
    out.error((error as Error).message);
    return ExitCode.failure;
  }
  const { broker, store } = runnerHost(prompter, out, { printErrors: false });
  let stop: (() => void) | undefined;
  const lost = (error?: AhpError): void => {
    if (error) {
      out.error(error.message);
      verdict.note(ExitCode.failure);
    }
    stop?.();
  };
  const filter = sessionFilter(options.session);
  let inbox: AgentHostInbox;
  try {
    inbox = await AgentHostInbox.open({
      endpoint,
      ...(token !== undefined && { token }),
      clientInfo: { name: 'elicitation-host-cli', version: meta.version },
      log: { info: () => undefined, warn: (message) => out.error(message) },
      broker,
      store,
      ...(filter && { sessions: filter }),
      applyDefaults: () => true,
      events: events(out, verdict, endpoint.display, lost),
    });
  } catch (error) {
    out.error(error instanceof AhpError ? error.message : `cannot connect to the agent host at ${endpoint.display}: ${(error as Error).message}`);
    return ExitCode.failure;
  }
  try {
    if (!options.watch) {
      inbox.stopAsking();
      if (inbox.open.length === 0) out.line('no question is waiting', { type: 'idle' });
      await inbox.settled();
      return verdict.exitCode;
    }
    await new Promise<void>((resolve) => {
      stop = resolve;
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    return verdict.exitCode;
  } finally {
    inbox.close();
  }
}
