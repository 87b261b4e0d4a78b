/**
 * The published API (elicitation-host.d.ts, which extensions copy into their own code, so it
 * stands alone) against the core's own words for a live request (elicitation/live-model.ts):
 * a constant per type that fails to compile when the two drift apart. The answers are the
 * same both ways (what an extension gives, what it is told); a request the published file
 * lets an extension write is one the core reads (the core's options may also carry a
 * description, which an agent host's have). Only this layer imports the published file.
 * Types only: the constants are `true`.
 */
import type * as Public from '../../elicitation-host';
import type { SameType } from '../base/same-type';
import type { LiveAnswer, LiveAnswerValue, LiveQuestion, LiveRequest } from '../elicitation/live-model';

/** Every value of A is one of B. */
type Fits<A, B> = [A] extends [B] ? true : false;

export const PUBLISHED_MATCHES_CORE: {
  readonly answerValues: SameType<Public.InputAnswerValue, LiveAnswerValue>;
  readonly answers: SameType<Public.InputAnswer, LiveAnswer>;
  readonly questions: Fits<Public.InputQuestion, LiveQuestion>;
  readonly requests: Fits<Public.InputRequest, LiveRequest>;
} = { answerValues: true, answers: true, questions: true, requests: true };
