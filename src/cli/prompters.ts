/**
 * How the headless runner answers without asking anyone: from an answers file, with every
 * default, by declining, or (without a terminal) not at all. All of them print what was
 * asked and what was answered. The console is in console-prompter.ts.
 */
import type { AskOptions, Outcome, Prompter } from '../elicitation/broker';
import type { Answers, ContentValue } from '../elicitation/model';
import type { InputRequest } from '../elicitation/request';
import { defaultOf, toAnswerValue } from '../elicitation/validation';
import { announce, announceAnswer } from './announce';
import { ExitCode, type RunVerdict } from './exit-code';
import type { Output } from './output';

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
  const entries: Array<[string, Answers[string]]> = [];
  for (const [key, value] of Object.entries(content)) {
    const question = request.questions.find((q) => q.id === key);
    if (!question) {
      out.error(`the answer gives "${key}", which the form does not ask for; ignored`);
      continue;
    }
    entries.push([key, { state: 'submitted', value: toAnswerValue(question, value as ContentValue) }]);
  }
  // fromEntries defines own properties: an answer to a field named "__proto__" stays an answer.
  return Object.fromEntries(entries);
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
