/**
 * Asking on the console: one field at a time, then accept, decline or cancel; and link flows
 * that wait for the person to finish in the browser. Prompts carry server text, so they are
 * made terminal-safe; what is typed into a secret-looking field is not echoed (the terminal
 * is in raw mode and the echo goes to a muted stream) and never printed afterwards.
 */
import { createInterface, type Interface } from 'node:readline/promises';
import MuteStream from 'mute-stream';
import type { AskOptions, Outcome, Prompter } from '../elicitation/broker';
import type { Answers, Question } from '../elicitation/model';
import { terminalSafe } from '../elicitation/plain-text';
import type { InputRequest, RequestSource } from '../elicitation/request';
import type { UrlFlow } from '../mcp/ports';
import { answerFits, checkValue, defaultOf, parseTypedText, toAnswerValue } from '../elicitation/validation';
import { announce, announceAnswer, isSecretField } from './announce';
import type { Output } from './output';

/**
 * The terminal a conversation happens on: the process's own (stdin, stderr) for `call` and
 * `serve`; `/dev/tty` for `ask` and `acp-proxy`, whose stdin and stdout carry something else.
 */
export interface ConsoleTerminal {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

/** The process's own terminal, looked up when first used (process.stdin is made on first access). */
const processTerminal = (): ConsoleTerminal => ({ input: process.stdin, output: process.stderr });

/** One conversation's readline on the terminal, able to read a line without showing it. */
class Conversation {
  private readonly echo = new MuteStream();
  private readonly rl: Interface;

  private readonly abort = (): void => this.rl.close();

  constructor(private readonly signal: AbortSignal, private readonly terminal: ConsoleTerminal = processTerminal()) {
    this.echo.pipe(terminal.output);
    // terminal: raw mode, so the terminal itself does not echo what a hidden read must not show.
    // historySize 0: no line (a secret) is kept for the arrow keys to bring back.
    this.rl = createInterface({ input: terminal.input, output: this.echo, terminal: true, historySize: 0 });
    signal.addEventListener('abort', this.abort, { once: true });
  }

  ask(prompt: string): Promise<string> {
    return this.rl.question(terminalSafe(prompt));
  }

  async askHidden(prompt: string): Promise<string> {
    const answer = this.rl.question(terminalSafe(prompt));
    // The prompt is out; from here until Enter nothing readline writes reaches the screen.
    this.echo.mute();
    const text = await answer.finally(() => this.echo.unmute());
    this.terminal.output.write('\n');
    return text;
  }

  close(): void {
    this.signal.removeEventListener('abort', this.abort);
    this.rl.close();
    // Ends the pipe, which removes its listeners from stderr.
    this.echo.end();
  }
}

function promptFor(question: Question): string {
  const dflt = defaultOf(question);
  const shownDefault = dflt === undefined ? '' : ` [${isSecretField(question) ? 'default hidden' : String(dflt)}]`;
  return `  ${question.title}${question.description ? ` (${question.description})` : ''}${shownDefault}${isSecretField(question) ? ' (hidden as you type)' : ''}: `;
}

/** Asks on the conversation, one question at a time. */
export class ConsolePrompter implements Prompter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly out: Output, private readonly terminal: ConsoleTerminal = processTerminal()) {}

  ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    // One conversation at a time on one terminal.
    const run = this.queue.then(() => this.converse(request, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async converse(request: InputRequest, options: AskOptions): Promise<Outcome> {
    announce(this.out, request);
    options.errors?.forEach((e) => this.out.error(e.message));
    const conversation = new Conversation(options.signal, this.terminal);
    try {
      const entries: Array<[string, Answers[string]]> = [];
      for (const question of request.questions) {
        const answer = await this.askField(conversation, question);
        if (answer) entries.push([question.id, answer]);
      }
      // fromEntries defines own properties: an answer to a field named "__proto__" stays an answer.
      const answers: Answers = Object.fromEntries(entries);
      const verb = request.mode === 'url' ? 'I opened it' : 'send';
      for (;;) {
        const choice = (await conversation.ask(`  (a)ccept — ${verb}, (d)ecline, (c)ancel? `)).trim().toLowerCase();
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
        this.terminal.output.write('\n');
        const outcome: Outcome = { action: 'cancel' };
        announceAnswer(this.out, outcome, request, (error as Error).message);
        return outcome;
      }
      throw error;
    } finally {
      conversation.close();
    }
  }

  /** Asks one field until it is answered as it must be; undefined when an optional field is left empty. */
  private async askField(conversation: Conversation, question: Question): Promise<Answers[string] | undefined> {
    const secret = isSecretField(question);
    for (;;) {
      const dflt = defaultOf(question);
      const text = await (secret ? conversation.askHidden(promptFor(question)) : conversation.ask(promptFor(question)));
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
        return undefined;
      }
      // Checked here, so only this field is asked again rather than the whole form.
      const problem = checkValue(question, parsed.value);
      if (problem !== undefined) {
        this.out.error(problem);
        continue;
      }
      const answer = { state: 'submitted' as const, value: toAnswerValue(question, parsed.value) };
      return answerFits(question, answer) ? answer : undefined;
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
      const conversation = new Conversation(signal);
      try {
        const answer = await conversation.ask('  Press Enter when you have finished in the browser (c to cancel): ');
        return answer.trim().toLowerCase() !== 'c';
      } catch {
        return false;
      } finally {
        conversation.close();
      }
    },
    completed(server: string, message: string): void {
      out.line(`✓ review in ${server} completed${message ? `: ${message}` : ''}`, { type: 'completed', server, message });
    },
  };
}
