/**
 * Command line of the headless runner:
 *   elicitation-host call [options] <server-url> <tool>
 *   elicitation-host call [options] <tool> -- <command> [args...]
 *   elicitation-host call-all [options] <server-url>
 *   elicitation-host call-all [options] -- <command> [args...]
  elicitation-host serve [options] -- <command> [args...]    (serve --help: the gateway)
 * Parsed by Node's own `util.parseArgs` (strict), so `--args JSON` and `--args=JSON` both work.
 */
import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';

export interface CliOptions {
  readonly command: 'call' | 'call-all';
  readonly target: { readonly kind: 'url'; readonly url: string } | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] };
  readonly tool?: string;
  readonly args: Record<string, unknown>;
  readonly answersFile?: string;
  readonly acceptDefaults: boolean;
  readonly decline: boolean;
  readonly json: boolean;
}

export const USAGE = `Usage:
  elicitation-host call [options] <server-url> <tool>
  elicitation-host call [options] <tool> -- <command> [args...]
  elicitation-host call-all [options] <server-url>
  elicitation-host call-all [options] -- <command> [args...]
  elicitation-host serve [options] -- <command> [args...]   (the gateway: serve --help)

Options (a value follows as the next word or after "=", as in --args='{"a":1}'):
  --args JSON          tool arguments (call-all fills the rest from schema defaults)
  --answers FILE       a JSON array of ElicitResult objects, used in order, one per elicitation
  --accept-defaults    accept every form with its defaults
  --decline            decline every elicitation
  --json               print JSON lines
  -h, --help           this help

Everything after -- is the command that starts a stdio server, passed on untouched.

Without --answers, --accept-defaults or --decline, questions are asked on the console
(what you type into a field that looks like a password or key is not shown); without a
terminal, forms are cancelled. Links (URL mode) are declined unless the answers file
accepts them. Server text is printed without control characters (terminal escapes) and
invisible characters; answers to fields that look secret are printed as ********.

Exit code (call-all goes on after a failed tool; the first that applies wins):
  1  a connection or protocol failure (a call failed, or the server sent a question
     this client refused), or bad usage
  3  a form could not be answered as asked: --accept-defaults met a required field
     without a default, the answers file ran out or gave an answer the form refused,
     or there was no terminal to ask in
  2  a tool returned isError
  0  every call returned a result without isError`;

export class UsageError extends Error {}

const OPTIONS = {
  args: { type: 'string' },
  answers: { type: 'string' },
  'accept-defaults': { type: 'boolean' },
  decline: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type Parsed = ReturnType<typeof parseNodeArgs<{ args: string[]; options: typeof OPTIONS; strict: true; allowPositionals: true; tokens: true }>>;

function parseStrict(argv: readonly string[]): Parsed {
  try {
    return parseNodeArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    if (!String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) throw error;
    throw new UsageError(describeParseError(argv, (error as Error).message));
  }
}

/**
 * Node's messages suggest putting unknown options after `--`, which here would hand them to
 * the server's command: the tokens of a lenient parse say what went wrong in our words.
 */
function describeParseError(argv: readonly string[], nodeMessage: string): string {
  const { tokens } = parseNodeArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const known = Object.prototype.hasOwnProperty.call(OPTIONS, token.name) ? OPTIONS[token.name as keyof typeof OPTIONS] : undefined;
    if (!known) return `unknown option ${token.rawName}`;
    if (known.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`;
    if (known.type === 'string' && token.value === undefined) return `${token.rawName} needs a value`;
    if (known.type === 'string' && !token.inlineValue && token.value?.startsWith('-')) {
      return `${token.rawName} needs a value (for a value that starts with "-", write ${token.rawName}=VALUE)`;
    }
  }
  return nodeMessage;
}

function toolArguments(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--args is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--args must be a JSON object');
  return parsed as Record<string, unknown>;
}

export function parseArgs(argv: readonly string[]): CliOptions | 'help' {
  if (argv.length === 0) return 'help';
  const { values, positionals, tokens } = parseStrict(argv);
  if (values.help) return 'help';
  const terminator = tokens.find((t) => t.kind === 'option-terminator');
  // Words after `--` are the server's command line, whatever they look like.
  const before = terminator ? positionalsBefore(tokens, terminator.index) : positionals;
  const after = terminator ? argv.slice(terminator.index + 1) : undefined;
  const [command, ...rest] = before;
  if (command === undefined) throw new UsageError('a command (call or call-all) must come first');
  if (command !== 'call' && command !== 'call-all') throw new UsageError(`unknown command "${command}"`);
  const answersFile = values.answers;
  const acceptDefaults = values['accept-defaults'] === true;
  const decline = values.decline === true;
  if ([answersFile !== undefined, acceptDefaults, decline].filter(Boolean).length > 1) {
    throw new UsageError('use only one of --answers, --accept-defaults and --decline');
  }
  const args = values.args === undefined ? {} : toolArguments(values.args);
  let target: CliOptions['target'];
  let tool: string | undefined;
  if (after) {
    if (after.length === 0) throw new UsageError('a command must follow --');
    target = { kind: 'stdio', command: after[0], args: after.slice(1) };
    if (command === 'call') {
      if (rest.length !== 1) throw new UsageError('call with a command takes one tool name: call <tool> -- <command>');
      tool = rest[0];
    } else if (rest.length !== 0) {
      throw new UsageError(`unexpected ${rest.join(' ')}`);
    }
  } else {
    const expected = command === 'call' ? 2 : 1;
    if (rest.length !== expected) {
      throw new UsageError(command === 'call' ? 'call takes a server URL and a tool name' : 'call-all takes a server URL');
    }
    target = { kind: 'url', url: rest[0] };
    tool = rest[1];
  }
  return { command, target, ...(tool !== undefined && { tool }), args, ...(answersFile !== undefined && { answersFile }), acceptDefaults, decline, json: values.json === true };
}

function positionalsBefore(tokens: Parsed['tokens'], index: number): string[] {
  return tokens.flatMap((t) => (t.kind === 'positional' && t.index < index ? [t.value] : []));
}
