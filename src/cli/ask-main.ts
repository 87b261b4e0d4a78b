/**
 * `elicitation-host ask`: a script, a git hook or a Makefile asks the person one question,
 * in the VS Code window of the terminal it runs in, else on that terminal (outside-asker.ts),
 * and gets the answer as an exit code and the content as JSON on stdout.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FormParams, UrlParams } from '../elicitation/broker';
import type { Content } from '../elicitation/model';
import { terminalSafe } from '../elicitation/plain-text';
import { parseRequestedSchema } from '../elicitation/schema';
import { isSecretField } from '../elicitation/secret-hint';
import type { AskBody } from '../gateway/contract';
import { HIDDEN } from './announce';
import { type AskWhat, ASK_USAGE, parseAskArgs } from './ask-args';
import { jsonLine } from './output';
import { outsideAsker } from './outside-asker';
import { parentCommandName } from './parent-command';
import { QuestionRefusedError } from './window-asker';
import { errorMessage } from '../base/error-message';

/** Not `call`'s table: a script reads 0 as yes, and everything else as some kind of no. */
export const AskExit = { accept: 0, decline: 1, cancel: 2, notAsked: 3 } as const;

export interface AskDeps {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Who asks when the parent command cannot be named (tests). */
  readonly from?: string;
}

function fail(message: string): number {
  process.stderr.write(`elicitation-host ask: ${terminalSafe(message)}\n`);
  return AskExit.notAsked;
}

function questionOf(what: AskWhat): FormParams | UrlParams {
  switch (what.kind) {
    case 'confirm':
      return { mode: 'form', message: what.message, requestedSchema: { type: 'object', properties: {} } };
    case 'url':
      return { mode: 'url', message: what.message, url: what.url, elicitationId: randomUUID() };
    case 'form': {
      let schema: unknown;
      try {
        schema = JSON.parse(readFileSync(what.schemaFile, 'utf8'));
      } catch (error) {
        throw new QuestionRefusedError(`cannot read the schema file ${what.schemaFile}: ${(error as Error).message}`);
      }
      return { mode: 'form', message: what.message, requestedSchema: schema };
    }
  }
}

/** The content as printed: a secret-looking field's value is not written to a terminal, only to a pipe the script reads. */
function printable(content: Content, question: FormParams | UrlParams): Content {
  if (!process.stdout.isTTY || question.mode === 'url') return content;
  const parsed = parseRequestedSchema(question.requestedSchema);
  if (!parsed.ok) return content;
  const secret = new Set(parsed.form.questions.filter(isSecretField).map((q) => q.id));
  return Object.fromEntries(Object.entries(content).map(([key, value]) => [key, secret.has(key) ? HIDDEN : value]));
}

export async function askMain(argv: readonly string[], deps: AskDeps = {}): Promise<number> {
  let what: AskWhat | 'help';
  try {
    what = parseAskArgs(argv);
  } catch (error) {
    process.stderr.write(`error: ${terminalSafe((error as Error).message)}\n\n${ASK_USAGE}\n`);
    return AskExit.notAsked;
  }
  if (what === 'help') {
    process.stdout.write(`${ASK_USAGE}\n`);
    return AskExit.accept;
  }
  const stop = new AbortController();
  // Stopped while a terminal prompt has the terminal in raw mode: close it properly (cancel) rather than die in it.
  const onSignal = (): void => stop.abort(new Error('ask was stopped'));
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.once(s, onSignal);
  let asker;
  try {
    const question = questionOf(what);
    const body: AskBody = { from: deps.from ?? parentCommandName() ?? 'ask', ...(what.kind !== 'url' && what.destructive && { destructive: true }), question };
    asker = outsideAsker({ env: deps.env ?? process.env, notice: (message) => process.stderr.write(`elicitation-host ask: ${terminalSafe(message)}\n`) });
    const result = await asker.ask(body, stop.signal);
    if (result.action !== 'accept') return result.action === 'decline' ? AskExit.decline : AskExit.cancel;
    process.stdout.write(`${jsonLine(printable(result.content ?? {}, question))}\n`);
    return AskExit.accept;
  } catch (error) {
    if (stop.signal.aborted) return AskExit.cancel;
    return fail(errorMessage(error));
  } finally {
    asker?.close();
    for (const s of signals) process.off(s, onSignal);
  }
}
