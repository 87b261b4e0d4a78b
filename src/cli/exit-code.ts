/**
 * The runner's exit codes. `call-all` goes on after a tool fails, so one run can meet
 * several of them; the run exits with the most serious.
 */

export const ExitCode = {
  /** Every call returned a result without isError, and every question was answered as asked. */
  ok: 0,
  /** A connection or protocol failure (or bad usage). */
  failure: 1,
  /** A tool returned a result with isError. */
  toolError: 2,
  /** A form could not be answered as asked: the run did not test what its options meant it to. */
  unanswered: 3,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Least to most serious. An unanswered form outranks isError because the tool's error may
 * only be the consequence of the cancelled question.
 */
const SEVERITY: readonly ExitCode[] = [ExitCode.ok, ExitCode.toolError, ExitCode.unanswered, ExitCode.failure];

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
