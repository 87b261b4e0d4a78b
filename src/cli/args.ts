/**
 * Command line of the headless runner:
 *   elicitation-host call [options] <server-url> <tool>
 *   elicitation-host call [options] <tool> -- <command> [args...]
 *   elicitation-host call-all [options] <server-url>
 *   elicitation-host call-all [options] -- <command> [args...]
 */

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

Options:
  --args JSON          tool arguments (call-all fills the rest from schema defaults)
  --answers FILE       a JSON array of ElicitResult objects, used in order, one per elicitation
  --accept-defaults    accept every form with its defaults
  --decline            decline every elicitation
  --json               print JSON lines
  -h, --help           this help

Without --answers, --accept-defaults or --decline, questions are asked on the console;
without a terminal, forms are cancelled. Links (URL mode) are declined unless the answers
file accepts them.

Exit code (call-all goes on after a failed tool; the first that applies wins):
  1  a connection or protocol failure (a call failed, or the server sent a question
     this client refused), or bad usage
  3  a form could not be answered as asked: --accept-defaults met a required field
     without a default, the answers file ran out or gave an answer the form refused,
     or there was no terminal to ask in
  2  a tool returned isError
  0  every call returned a result without isError`;

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[]): CliOptions | 'help' {
  const dashDash = argv.indexOf('--');
  const before = dashDash >= 0 ? argv.slice(0, dashDash) : [...argv];
  const after = dashDash >= 0 ? argv.slice(dashDash + 1) : [];
  if (before.includes('-h') || before.includes('--help') || before.length === 0) return 'help';
  const [command, ...rest] = before;
  if (command !== 'call' && command !== 'call-all') throw new UsageError(`unknown command "${command}"`);
  const positional: string[] = [];
  let args: Record<string, unknown> = {};
  let answersFile: string | undefined;
  let acceptDefaults = false;
  let decline = false;
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = (): string => {
      const next = rest[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '--args': {
        const text = value();
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (e) {
          throw new UsageError(`--args is not valid JSON: ${(e as Error).message}`);
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--args must be a JSON object');
        args = parsed as Record<string, unknown>;
        break;
      }
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
        if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
        positional.push(arg);
    }
  }
  if ([answersFile !== undefined, acceptDefaults, decline].filter(Boolean).length > 1) {
    throw new UsageError('use only one of --answers, --accept-defaults and --decline');
  }
  let target: CliOptions['target'];
  let tool: string | undefined;
  if (dashDash >= 0) {
    if (after.length === 0) throw new UsageError('a command must follow --');
    target = { kind: 'stdio', command: after[0], args: after.slice(1) };
    if (command === 'call') {
      if (positional.length !== 1) throw new UsageError('call with a command takes one tool name: call <tool> -- <command>');
      tool = positional[0];
    } else if (positional.length !== 0) {
      throw new UsageError(`unexpected ${positional.join(' ')}`);
    }
  } else {
    const expected = command === 'call' ? 2 : 1;
    if (positional.length !== expected) {
      throw new UsageError(command === 'call' ? 'call takes a server URL and a tool name' : 'call-all takes a server URL');
    }
    target = { kind: 'url', url: positional[0] };
    tool = positional[1];
  }
  return { command, target, ...(tool !== undefined && { tool }), args, ...(answersFile !== undefined && { answersFile }), acceptDefaults, decline, json };
}
