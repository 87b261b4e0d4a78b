/**
 * Elicitation Host: Try a Sample Question (the walkthrough's way in with no server): the
 * sample's confirm, form and link through the broker and our prompts, then what a server
 * would have received, in a notification. Nothing is sent anywhere.
 */
import type { Broker } from '../../elicitation/broker';
import { askSample, sampleSummary } from '../../elicitation/sample-questions';
import { showInfo } from '../notify';

export const TRY_SAMPLE_COMMAND = 'elicitationHost.trySample';

export async function trySampleQuestion(broker: Broker, applyDefaults: boolean): Promise<void> {
  const answered = await askSample(broker, { signal: new AbortController().signal, applyDefaults });
  void showInfo(sampleSummary(answered));
}
