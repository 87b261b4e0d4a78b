/**
 * Mocha's root hooks for the unit and integration suites: a test fails when a scripted
 * prompter's step threw (an assertion inside a step), which the broker would otherwise
 * turn into a declined or cancelled prompt that the test may never look at.
 */
import { takeFailedSteps } from './scripted-prompter';

export const mochaHooks = {
  afterEach(): void {
    const failed = takeFailedSteps();
    if (failed.length === 0) return;
    const first = failed[0];
    const error = new Error(`a scripted prompter's step threw${failed.length > 1 ? ` (${failed.length} steps)` : ''}: ${first instanceof Error ? first.message : String(first)}`);
    if (first instanceof Error) error.stack = `${error.message}\n${first.stack ?? ''}`;
    throw error;
  },
};
