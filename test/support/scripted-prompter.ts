/**
 * A Prompter driven by a script: each call takes the next step, which sees the request and
 * the ask options and returns the outcome (or never settles, to model a person who has
 * not answered yet). Records every call so tests can assert what was asked and how.
 *
 * A step that throws (an assertion in it, say) is a failed prompt to the broker, which
 * declines or cancels and may leave the test passing: such errors are kept, and the root
 * hook (root-hooks.ts) fails the test with them. A test that means its step to throw uses
 * `throwing()`.
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
    if (!step) return failed(new Error(`the script has no answer for "${request.message}"`));
    try {
      return await step(request, options);
    } catch (error) {
      return failed(error);
    }
  }
}

const MEANT = Symbol('a step meant to throw');
const failedSteps: unknown[] = [];

function failed(error: unknown): never {
  if (!(error instanceof Error && MEANT in error)) failedSteps.push(error);
  throw error;
}

/** The errors of steps that threw since the last call (root-hooks.ts fails the test with them). */
export function takeFailedSteps(): unknown[] {
  return failedSteps.splice(0);
}

/** A step that throws this, as a broken prompt would: the test means it. */
export function throwing(message: string): Step {
  return () => {
    throw Object.assign(new Error(message), { [MEANT]: true });
  };
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
