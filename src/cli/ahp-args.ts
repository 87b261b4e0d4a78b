/**
 * Command line of `elicitation-host ahp`: an agent host's open questions answered from a
 * script, with defaults, by declining, or on the console. The connection token is read from
 * a file or an environment variable, never from the command line (which every process on
 * the machine can read), and never printed.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { answeringOf } from './agent-argv';
import { UsageError } from './exit-code';
import type { AnsweringOptions } from './choose-prompter';

export interface AhpOptions extends AnsweringOptions {
  readonly url: string;
  readonly token: { readonly file: string } | { readonly env: string } | undefined;
  readonly session?: string;
  readonly watch: boolean;
  readonly json: boolean;
}

export const AHP_USAGE = `Usage:
  elicitation-host ahp --url URL (--token-file F | --token-env NAME) [options]

Connects to an agent host (VS Code's, which runs its Claude and Copilot agents; started with
--agent-host-port, or \`code agent host\`) as one more client, and answers the questions its
agents are waiting on: input requests (Claude's AskUserQuestion, an MCP server's form) and
tool calls waiting for a confirmation ("may I run rm -rf build?"). Each is printed with who
asks (the agent, the host, the session) and the answer given. Without --watch it answers what
is open now and exits; with --watch it keeps answering new ones until interrupted.

  --url URL              ws://127.0.0.1:PORT (this machine only), wss://HOST/..., or a socket path
  --token-file F         the connection token, from a file (as \`code agent host\` keeps it)
  --token-env NAME       the connection token, from this environment variable
                         (neither: no token, for a host started --without-connection-token)
  --answers FILE         a JSON array of ElicitResult objects, used in order, one per question;
                         a tool call's answer: {"action":"accept","content":{"decision":"approve"}}
                         (or the id of one of the host's own options); decline denies it
  --accept-defaults      accept every question with its defaults (a tool call's default is to deny)
  --decline              decline every question and deny every tool call
  --session ID           only this session (its URI, or the id after the provider, claude:/ID)
  --watch                keep answering until interrupted (Ctrl+C)
  --json                 print JSON lines
  -h, --help             this help

The token is never accepted on the command line: a URL with ?tkn= is refused.

Exit code (the most serious that happened):
  1  the host could not be reached, refused the token, speaks no version of the protocol
     we speak, or broke it; or bad usage
  3  a question could not be answered as asked (as for call), or was refused over a limit
  4  a tool call was denied
  0  every question was answered as asked`;

const OPTIONS = {
  url: { type: 'string' },
  'token-file': { type: 'string' },
  'token-env': { type: 'string' },
  answers: { type: 'string' },
  'accept-defaults': { type: 'boolean' },
  decline: { type: 'boolean' },
  session: { type: 'string' },
  watch: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseAhpArgs(argv: readonly string[]): AhpOptions | 'help' {
  if (argv.length === 0) return 'help';
  // Said before parsing: an unknown option's message would repeat the token it carries.
  if (argv.some((a) => /^--(token|tkn|connection-token)(=|$)/.test(a))) throw new UsageError('the token is not taken on the command line (other processes can read it there): use --token-file F or --token-env NAME');
  let values;
  try {
    ({ values } = parseNodeArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  if (values.help === true) return 'help';
  if (values.url === undefined) throw new UsageError('give the agent host with --url URL');
  if (values['token-file'] !== undefined && values['token-env'] !== undefined) throw new UsageError('give the token once: --token-file F or --token-env NAME');
  const token = values['token-file'] !== undefined ? { file: values['token-file'] } : values['token-env'] !== undefined ? { env: values['token-env'] } : undefined;
  return {
    url: values.url,
    token,
    ...answeringOf(values),
    ...(values.session !== undefined && { session: values.session }),
    watch: values.watch === true,
    json: values.json === true,
  };
}
