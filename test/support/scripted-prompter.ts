/**
 * A Prompter driven by a script: each call takes the next step, which sees the request and
 * the ask options and returns the outcome (or never settles, to model a person who has
 * not answered yet). Records every call so tests can assert what was asked and how.
 */
import type { AskOptions, Outcome, Prompter } from '../../src/elicitation/broker';
import type { Answers, ContentValue } from '../../src/elicitation/model';
import type { InputRequest } from '../../src/elicitation/request';
import { toAnswerValue } from '../../src/elicitation/validation';

export type Step = (request: InputRequest, options: AskOptions) => Outcome | Promise<Outcome>;

export interface AskRecord {
  readonly request: InputRequest;
  readonly options: AskOptions;
}

export class ScriptedPrompter implements Prompter {
  readonly asked: AskRecord[] = [];

  constructor(private readonly steps: Step[] = [], private readonly fallback?: Step) {}

  push(...steps: Step[]): void {
    this.steps.push(...steps);
  }

  async ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    this.asked.push({ request, options });
    const step = this.steps.shift() ?? this.fallback;
    if (!step) throw new Error(`the script has no answer for "${request.message}"`);
    return step(request, options);
  }
}

/** Submits these values (typed as the questions expect). */
export function accept(values: Record<string, ContentValue> = {}): Step {
  return (request) => ({ action: 'accept', answers: submitted(request, values) });
}

export function submitted(request: InputRequest, values: Record<string, ContentValue>): Answers {
  return Object.fromEntries(
    Object.entries(values).map(([id, value]) => {
      const question = request.questions.find((q) => q.id === id);
      if (!question) throw new Error(`no question ${id} in "${request.message}"`);
      return [id, { state: 'submitted' as const, value: toAnswerValue(question, value) }];
    }),
  );
}

export const decline: Step = () => ({ action: 'decline' });
export const cancel: Step = () => ({ action: 'cancel' });

/** Never answers: resolves only when the request's signal fires (as a closing prompt does). */
export const waitForAbort: Step = (_request, options) =>
  new Promise((resolve) => options.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
