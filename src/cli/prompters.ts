/**
 * How the headless runner answers: from an answers file, with every default, by declining,
 * or by asking on the console. All of them print what was asked and what was answered.
 */
import { createInterface } from 'node:readline/promises';
import type { AskOptions, Outcome, Prompter } from '../elicitation/broker';
import type { Answers, ContentValue, Question } from '../elicitation/model';
import type { InputRequest, RequestSource } from '../elicitation/request';
import type { UrlFlow } from '../mcp/connection';
import { checkUrl } from '../elicitation/url-check';
import { answerFits, checkValue, defaultOf, parseTypedText, toAnswerValue } from '../elicitation/validation';
import { ExitCode, type RunVerdict } from './exit-code';

export interface Output {
  readonly json: boolean;
  line(human: string, record: Record<string, unknown>): void;
  /** `details` go into the JSON record only (the human message must say it all). */
  error(message: string, details?: Record<string, unknown>): void;
}

export function createOutput(json: boolean, write = (text: string) => process.stdout.write(text), writeError = (text: string) => process.stderr.write(text)): Output {
  return {
    json,
    line: (human, record) => write(json ? `${JSON.stringify(record)}\n` : `${human}\n`),
    error: (message, details = {}) => (json ? write(`${JSON.stringify({ type: 'error', message, ...details })}\n`) : writeError(`error: ${message}\n`)),
  };
}

function describeField(q: Question): string {
  const bits: string[] = [q.kind];
  if (q.kind === 'text' && q.format) bits.push(q.format);
  if (q.required) bits.push('required');
  const dflt = defaultOf(q);
  if (dflt !== undefined) bits.push(`default ${JSON.stringify(dflt)}`);
  if ('options' in q) bits.push(`one of ${q.options.map((o) => o.value).join('|')}`);
  return `${q.id} (${bits.join(', ')})`;
}

/** The server, and the tool when the question belongs to one call for certain. */
export function whoAsks(source: RequestSource): string {
  return source.tool ? `${source.server} (${source.tool})` : source.server;
}

/** Prints the question, whichever prompter answers it. */
export function announce(out: Output, request: InputRequest): void {
  const who = whoAsks(request.source);
  if (request.mode === 'url') {
    const check = checkUrl(request.url);
    out.line(`? ${who} asks you to open ${request.url}${check.ok ? ` [site: ${check.host}${check.warnings.length ? `; ${check.warnings.join(' ')}` : ''}]` : ` [refused: ${check.reason}]`}\n  ${request.message}`, {
      type: 'elicitation', mode: 'url', server: request.source.server, tool: request.source.tool ?? null, message: request.message, url: request.url,
    });
    return;
  }
  const fields = request.questions.length === 0 ? '  (a yes/no question)' : request.questions.map((q) => `  - ${describeField(q)}`).join('\n');
  out.line(`? ${who}: ${request.message}\n${fields}`, {
    type: 'elicitation', mode: 'form', server: request.source.server, tool: request.source.tool ?? null, message: request.message,
    fields: request.questions.map((q) => q.id),
  });
}

/** Prints the answer; `reason` says why, when the runner chose it rather than the person or the file. */
export function announceAnswer(out: Output, outcome: Outcome, request: InputRequest, reason?: string): void {
  const content = outcome.action === 'accept' && outcome.answers
    ? Object.fromEntries(Object.entries(outcome.answers).flatMap(([k, a]) => (a.state === 'submitted' ? [[k, a.value.value]] : [])))
    : undefined;
  out.line(`→ ${outcome.action}${content && Object.keys(content).length ? ` ${JSON.stringify(content)}` : ''}${reason ? ` (${reason})` : ''}`, {
    type: 'answer', action: outcome.action, ...(content && { content }), ...(reason && { reason }), request: request.id,
  });
}

/** A link the broker refused without asking anyone (not a web page): the server got `decline`. */
export function announceRefusedLink(out: Output, source: RequestSource, url: string, reason: string): void {
  out.line(`? ${whoAsks(source)} asks you to open ${url} [refused: ${reason}]`, {
    type: 'elicitation', mode: 'url', server: source.server, tool: source.tool ?? null, url, refused: reason,
  });
  const answerReason = 'the link was refused unopened';
  out.line(`→ decline (${answerReason})`, { type: 'answer', action: 'decline', reason: answerReason });
}

/**
 * The answer when the runner has none for a question. A link is declined: links are only
 * opened when an answers file accepts them. A form is cancelled, as nobody chose, and the
 * run exits 3, so a CI job notices that its options did not cover every question.
 */
function unanswered(out: Output, verdict: RunVerdict, request: InputRequest, reason: string): Outcome {
  if (request.mode === 'url') {
    const outcome: Outcome = { action: 'decline' };
    announceAnswer(out, outcome, request, `${reason}; links are declined unless an --answers file accepts them`);
    return outcome;
  }
  out.error(`${reason}; cancelling`, { request: request.id });
  verdict.note(ExitCode.unanswered);
  const outcome: Outcome = { action: 'cancel' };
  announceAnswer(out, outcome, request, reason);
  return outcome;
}

function answersFrom(request: InputRequest, content: Record<string, unknown>, out: Output): Answers {
  const answers: Record<string, Answers[string]> = {};
  for (const [key, value] of Object.entries(content)) {
    const question = request.questions.find((q) => q.id === key);
    if (!question) {
      out.error(`the answer gives "${key}", which the form does not ask for; ignored`);
      continue;
    }
    answers[key] = { state: 'submitted', value: toAnswerValue(question, value as ContentValue) };
  }
  return answers;
}

/** Why the broker refused the previous answer: reported, not retried with the next scripted one. */
function refusalOf(options: AskOptions): string | undefined {
  return options.errors?.length ? `the answer was refused: ${options.errors.map((e) => e.message).join('; ')}` : undefined;
}

export class AnswersFilePrompter implements Prompter {
  private next = 0;

  constructor(private readonly results: readonly unknown[], private readonly out: Output, private readonly verdict: RunVerdict) {}

  async ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    announce(this.out, request);
    const refusal = refusalOf(options);
    if (refusal) return unanswered(this.out, this.verdict, request, refusal);
    const number = ++this.next;
    const scripted = this.results[number - 1] as { action?: unknown; content?: unknown } | undefined;
    if (!scripted) return unanswered(this.out, this.verdict, request, `the answers file has no answer #${number}`);
    let outcome: Outcome;
    if (scripted.action === 'accept') {
      const content = typeof scripted.content === 'object' && scripted.content !== null ? (scripted.content as Record<string, unknown>) : {};
      outcome = { action: 'accept', answers: request.mode === 'url' ? {} : answersFrom(request, content, this.out) };
    } else if (scripted.action === 'decline' || scripted.action === 'cancel') {
      outcome = { action: scripted.action };
    } else {
      return unanswered(this.out, this.verdict, request, `answer #${number} has no valid action (accept, decline or cancel)`);
    }
    announceAnswer(this.out, outcome, request);
    return outcome;
  }
}

export class DefaultsPrompter implements Prompter {
  constructor(private readonly out: Output, private readonly verdict: RunVerdict) {}

  async ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    announce(this.out, request);
    const refusal = refusalOf(options);
    if (refusal) return unanswered(this.out, this.verdict, request, refusal);
    if (request.mode === 'url') return unanswered(this.out, this.verdict, request, '--accept-defaults does not open links');
    const missing = request.questions.filter((q) => q.required && defaultOf(q) === undefined);
    if (missing.length > 0) {
      const one = missing.length === 1;
      return unanswered(this.out, this.verdict, request,
        `--accept-defaults cannot answer: ${missing.map((q) => q.id).join(', ')} ${one ? 'is' : 'are'} required and ${one ? 'has' : 'have'} no default`);
    }
    const answers = Object.fromEntries(
      request.questions.flatMap((q) => {
        const value = defaultOf(q);
        return value === undefined ? [] : [[q.id, { state: 'submitted' as const, value: toAnswerValue(q, value) }]];
      }),
    );
    const outcome: Outcome = { action: 'accept', answers };
    announceAnswer(this.out, outcome, request);
    return outcome;
  }
}

export class DeclinePrompter implements Prompter {
  constructor(private readonly out: Output) {}

  async ask(request: InputRequest): Promise<Outcome> {
    announce(this.out, request);
    const outcome: Outcome = { action: 'decline' };
    announceAnswer(this.out, outcome, request);
    return outcome;
  }
}

/** Without a terminal or an option that answers, nobody can: every question gets the runner's own answer, and says how to give one. */
export class NoTerminalPrompter implements Prompter {
  constructor(private readonly out: Output, private readonly verdict: RunVerdict) {}

  async ask(request: InputRequest): Promise<Outcome> {
    announce(this.out, request);
    return unanswered(this.out, this.verdict, request, 'there is no terminal to ask in: use --answers FILE, --accept-defaults or --decline');
  }
}

/** Asks on the console, one question at a time. */
export class ConsolePrompter implements Prompter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly out: Output) {}

  ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    // One conversation at a time on one terminal.
    const run = this.queue.then(() => this.converse(request, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async converse(request: InputRequest, options: AskOptions): Promise<Outcome> {
    announce(this.out, request);
    options.errors?.forEach((e) => this.out.error(e.message));
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const abort = (): void => rl.close();
    options.signal.addEventListener('abort', abort, { once: true });
    try {
      const answers: Record<string, Answers[string]> = {};
      for (const question of request.questions) {
        for (;;) {
          const dflt = defaultOf(question);
          const text = await rl.question(`  ${question.title}${question.description ? ` (${question.description})` : ''}${dflt !== undefined ? ` [${String(dflt)}]` : ''}: `);
          const parsed = parseTypedText(question, text === '' && dflt !== undefined ? String(dflt) : text);
          if (!parsed.ok) {
            this.out.error(parsed.message);
            continue;
          }
          if (parsed.value === undefined) {
            if (question.required) {
              this.out.error(`${question.title} is required`);
              continue;
            }
            break;
          }
          // Checked here, so only this field is asked again rather than the whole form.
          const problem = checkValue(question, parsed.value);
          if (problem !== undefined) {
            this.out.error(problem);
            continue;
          }
          const answer = { state: 'submitted' as const, value: toAnswerValue(question, parsed.value) };
          if (answerFits(question, answer)) answers[question.id] = answer;
          break;
        }
      }
      const verb = request.mode === 'url' ? 'I opened it' : 'send';
      for (;;) {
        const choice = (await rl.question(`  (a)ccept — ${verb}, (d)ecline, (c)ancel? `)).trim().toLowerCase();
        const outcome: Outcome | undefined =
          choice === 'a' ? { action: 'accept', answers } : choice === 'd' ? { action: 'decline' } : choice === 'c' ? { action: 'cancel' } : undefined;
        if (outcome) {
          announceAnswer(this.out, outcome, request);
          return outcome;
        }
      }
    } catch (error) {
      if (options.signal.aborted) return { action: 'cancel' };
      if ((error as { code?: unknown }).code === 'ABORT_ERR') {
        // Ctrl+C or Ctrl+D at a prompt: the person dismissed the question, which the server hears as cancel.
        process.stderr.write('\n');
        const outcome: Outcome = { action: 'cancel' };
        announceAnswer(this.out, outcome, request, (error as Error).message);
        return outcome;
      }
      throw error;
    } finally {
      options.signal.removeEventListener('abort', abort);
      rl.close();
    }
  }
}

/**
 * Link flows on the console: in a terminal the person presses Enter when done in the
 * browser; without one, an accepted link counts as visited (as an answers file says).
 */
export function consoleUrlFlow(out: Output): UrlFlow {
  return {
    async finishedInBrowser(source: RequestSource, url: string, signal: AbortSignal): Promise<boolean> {
      out.line(`… waiting until you have finished at ${url}`, { type: 'waiting', server: source.server, url });
      if (!process.stdin.isTTY) return true;
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      signal.addEventListener('abort', () => rl.close(), { once: true });
      try {
        const answer = await rl.question('  Press Enter when you have finished in the browser (c to cancel): ');
        return answer.trim().toLowerCase() !== 'c';
      } catch {
        return false;
      } finally {
        rl.close();
      }
    },
    completed(server: string, message: string): void {
      out.line(`✓ review in ${server} completed${message ? `: ${message}` : ''}`, { type: 'completed', server, message });
    },
  };
}
