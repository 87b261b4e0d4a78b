/**
 * The runner's exit codes. `call-all` goes on after a tool fails, so one run can meet
 * several of them; the run exits with the most serious. And bad usage, the same for every
 * command: its error, its usage, exit 1.
 */
import { terminalSafe } from '../elicitation/plain-text';

export const ExitCode = {
  /** Every call returned a result without isError, and every question was answered as asked. */
  ok: 0,
  /** A connection or protocol failure (or bad usage). */
  failure: 1,
  /** A tool returned a result with isError. */
  toolError: 2,
  /** A form could not be answered as asked: the run did not test what its options meant it to. */
  unanswered: 3,
  /** `acp`: the agent was refused a permission (by --permissions, the answers, or the person). */
  permissionRefused: 4,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Least to most serious. An unanswered form outranks isError because the tool's error may
 * only be the consequence of the cancelled question.
 */
const SEVERITY: readonly ExitCode[] = [ExitCode.ok, ExitCode.permissionRefused, ExitCode.toolError, ExitCode.unanswered, ExitCode.failure];

/** Collects what happened during a run; its exit code is the most serious. */
export class RunVerdict {
  private worst: ExitCode = ExitCode.ok;

  note(code: ExitCode): void {
    if (SEVERITY.indexOf(code) > SEVERITY.indexOf(this.worst)) this.worst = code;
  }

  get exitCode(): ExitCode {
    return this.worst;
  }
}

/** A command's arguments are not what it takes: the message, then its usage, and exit 1. */
export class UsageError extends Error {}

/**
 * A command's arguments parsed, or its usage printed: bad usage on stderr with the error
 * (exit 1), --help on stdout (exit 0). Returns the options, or the exit code to end with.
 */
export function optionsOrExit<T>(argv: readonly string[], parse: (argv: readonly string[]) => T | 'help', usage: string): { readonly options: T } | { readonly exit: ExitCode } {
  let options: T | 'help';
  try {
    options = parse(argv);
  } catch (error) {
    process.stderr.write(`error: ${terminalSafe((error as Error).message)}\n\n${usage}\n`);
    return { exit: ExitCode.failure };
  }
  if (options === 'help') {
    process.stdout.write(`${usage}\n`);
    return { exit: ExitCode.ok };
  }
  return { options };
}
