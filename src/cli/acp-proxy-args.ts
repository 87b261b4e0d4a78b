/**
 * Command line of `elicitation-host acp-proxy`: the agent's command after `--`, and how its
 * questions are answered when the client cannot ask them.
 */
import { answeringOf, parseAgentArgv } from './agent-argv';
import type { AnsweringOptions } from './choose-prompter';

export interface AcpProxyOptions {
  readonly agent: { readonly command: string; readonly args: readonly string[] };
  /** --answers, --accept-defaults or --decline: they answer, not the window or the terminal. */
  readonly answering?: AnsweringOptions;
}

export const ACP_PROXY_USAGE = `Usage:
  elicitation-host acp-proxy [--answers F | --accept-defaults | --decline] -- <agent command> [args...]

An ACP agent to the client that starts it (an editor, vscode-acp, any ACP client) and a
client to the real agent: every message passes through unchanged, except that when the
client does not offer elicitation, the proxy offers it to the agent (form and url) and
asks the agent's questions itself: in the VS Code window whose terminal it runs in
(ELICITATION_HOST_MCP_URL and ELICITATION_HOST_MCP_TOKEN), shown as "Terminal: <agent>";
without a window, or when it cannot be reached, on the terminal (/dev/tty). Permissions,
files and everything else stay the client's. A client's session/cancel closes the
question of that session; so does the end of the turn.

Options:
  --answers FILE       answer the agent's questions from a JSON array of ElicitResult
                       objects, in order, instead of asking anyone
  --accept-defaults    accept every form with its defaults
  --decline            decline every question
  -h, --help           this help

Everything after -- is the agent's command, passed on untouched. The proxy exits with the
agent's exit code; the agent's stderr is passed on as it is.`;

const OPTIONS = {
  answers: { type: 'string' },
  'accept-defaults': { type: 'boolean' },
  decline: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseAcpProxyArgs(argv: readonly string[]): AcpProxyOptions | 'help' {
  const parsed = parseAgentArgv(argv, OPTIONS);
  if (parsed === 'help') return 'help';
  const answering = answeringOf(parsed.values);
  const chosen = answering.answersFile !== undefined || answering.acceptDefaults || answering.decline;
  return { agent: parsed.agent, ...(chosen && { answering }) };
}
