/**
 * Command line of `elicitation-host acp`: one prompt to an ACP agent, its questions and
 * permissions answered as `call` answers them.
 */
import { answeringOf, parseAgentArgv } from './agent-argv';
import { UsageError } from './exit-code';

export interface AcpOptions {
  readonly agent: { readonly command: string; readonly args: readonly string[] };
  readonly prompt: { readonly text: string } | { readonly file: string };
  readonly answersFile?: string;
  readonly acceptDefaults: boolean;
  readonly decline: boolean;
  /** `allow`, `deny`, or a JSON file of rules (acp-permissions.ts); none: permissions are asked. */
  readonly permissions?: string;
  readonly mode?: string;
  readonly config: readonly { readonly id: string; readonly value: string }[];
  readonly json: boolean;
}

export const ACP_USAGE = `Usage:
  elicitation-host acp [options] (--prompt TEXT | --prompt-file F) -- <agent command> [args...]

Starts an ACP agent (Claude Code through claude-agent-acp, Codex through codex-acp,
"gemini --acp"...), opens a session in the current folder, sends one prompt and prints
the turn: the reply, tool calls, each permission and question with who asked and the
answer given, and how the turn ended. The agent may read and write files in the current
folder only.

Options:
  --prompt TEXT          the prompt
  --prompt-file F        the prompt, from a file
  --answers FILE         a JSON array of ElicitResult objects, used in order, one per
                         question or permission (a permission's answer: {"action":"accept",
                         "content":{"decision":"<optionId>"}}; decline rejects it)
  --accept-defaults      accept every form with its defaults (a permission's default is
                         its reject option)
  --decline              decline every question and permission
  --permissions P        allow | deny | a JSON file mapping tool kinds or titles to the
                         option kind to answer ("execute": "reject_once", "*": "allow_once");
                         a permission it does not cover is asked as above
  --mode ID              the session mode to switch to first (an unknown one is an error
                         naming those the agent offers)
  --config ID=VALUE      a session config option to set first (repeatable)
  --json                 print JSON lines
  -h, --help             this help

Everything after -- is the agent's command, passed on untouched.

Exit code (the first that applies wins):
  1  the agent failed or ended the turn other than end_turn, or bad usage
  3  a question could not be answered as asked (as for call)
  4  a permission was refused
  0  the turn ended (end_turn) with every question answered and every permission granted`;

const OPTIONS = {
  prompt: { type: 'string' },
  'prompt-file': { type: 'string' },
  answers: { type: 'string' },
  'accept-defaults': { type: 'boolean' },
  decline: { type: 'boolean' },
  permissions: { type: 'string' },
  mode: { type: 'string' },
  config: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseAcpArgs(argv: readonly string[]): AcpOptions | 'help' {
  const parsed = parseAgentArgv(argv, OPTIONS);
  if (parsed === 'help') return 'help';
  const { values, agent } = parsed;
  if ((values.prompt === undefined) === (values['prompt-file'] === undefined)) throw new UsageError('give the prompt once: --prompt TEXT or --prompt-file F');
  const answering = answeringOf(values);
  const config = (values.config ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--config takes ID=VALUE, not "${pair}"`);
    return { id: pair.slice(0, at), value: pair.slice(at + 1) };
  });
  return {
    agent,
    prompt: values.prompt !== undefined ? { text: values.prompt } : { file: values['prompt-file']! },
    ...answering,
    ...(values.permissions !== undefined && { permissions: values.permissions }),
    ...(values.mode !== undefined && { mode: values.mode }),
    config,
    json: values.json === true,
  };
}
