/**
 * What `acp` and `acp-proxy` read alike: their own options before `--`, parsed strictly,
 * the agent's command after it, untouched, and the name it is shown by; and the three
 * exclusive ways of answering.
 */
import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';
import type { AnsweringOptions } from './choose-prompter';
import { UsageError } from './exit-code';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseNodeArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>>['values'];

export interface AgentCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** The options' values and the agent's command; 'help' for none at all or -h. */
export function parseAgentArgv<O extends Options>(argv: readonly string[], options: O): { readonly values: Values<O>; readonly agent: AgentCommand } | 'help' {
  if (argv.length === 0) return 'help';
  const end = argv.indexOf('--');
  const ours = end === -1 ? argv : argv.slice(0, end);
  let parsed;
  try {
    parsed = parseNodeArgs({ args: [...ours], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  const { values, positionals } = parsed;
  if ((values as { help?: unknown }).help === true) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected ${positionals.join(' ')} (the agent's command goes after --)`);
  const agent = end === -1 ? [] : argv.slice(end + 1);
  if (agent.length === 0) throw new UsageError("the agent's command must follow --");
  return { values: values as Values<O>, agent: { command: agent[0], args: agent.slice(1) } };
}

/**
 * Who asks, as the person will recognise the command: `gemini --acp` is "gemini", a script
 * of a package (`node …/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js`,
 * `npx @agentclientprotocol/claude-agent-acp`) its package's name, else the script's file name.
 */
export function agentName(command: string, args: readonly string[]): string {
  const runs = args.find((a) => !a.startsWith('-')) ?? command;
  const pkg = /node_modules[\\/](?:@[^\\/]+[\\/])?([^\\/]+)[\\/]/.exec(runs)?.[1];
  return pkg ?? (runs.split(/[\\/]/).pop() || command);
}

/** --answers, --accept-defaults and --decline, at most one of them. */
export function answeringOf(values: { readonly answers?: string; readonly 'accept-defaults'?: boolean; readonly decline?: boolean }): AnsweringOptions {
  const acceptDefaults = values['accept-defaults'] === true;
  const decline = values.decline === true;
  if ([values.answers !== undefined, acceptDefaults, decline].filter(Boolean).length > 1) throw new UsageError('use only one of --answers, --accept-defaults and --decline');
  return { ...(values.answers !== undefined && { answersFile: values.answers }), acceptDefaults, decline };
}
