/**
 * Which prompter answers a run's questions, from the options `call`, `call-all` and `serve`
 * share: an answers file, every default, declining, else the console when there is one.
 */
import { readFileSync } from 'node:fs';
import type { Prompter } from '../elicitation/broker';
import { ConsolePrompter } from './console-prompter';
import type { RunVerdict } from './exit-code';
import type { Output } from './output';
import { AnswersFilePrompter, DeclinePrompter, DefaultsPrompter, NoTerminalPrompter } from './prompters';

export interface AnsweringOptions {
  readonly answersFile?: string;
  readonly acceptDefaults: boolean;
  readonly decline: boolean;
}

/** Throws `usageError(message)` when the answers file is unreadable or not an array. */
export function choosePrompter(options: AnsweringOptions, out: Output, verdict: RunVerdict, usageError: (message: string) => Error): Prompter {
  if (options.answersFile !== undefined) {
    let results: unknown;
    try {
      results = JSON.parse(readFileSync(options.answersFile, 'utf8'));
    } catch (error) {
      throw usageError(`cannot read the answers file ${options.answersFile}: ${(error as Error).message}`);
    }
    if (!Array.isArray(results)) throw usageError('the answers file must hold a JSON array of ElicitResult objects');
    return new AnswersFilePrompter(results, out, verdict);
  }
  if (options.acceptDefaults) return new DefaultsPrompter(out, verdict);
  if (options.decline) return new DeclinePrompter(out);
  if (process.stdin.isTTY) return new ConsolePrompter(out);
  return new NoTerminalPrompter(out, verdict);
}
