/**
 * Elicitation Host: Try a Sample Question (the walkthrough's way in with no server): the
 * sample's confirm, form and link through the broker and our prompts, then what a server
 * would have received, in a notification. Nothing is sent anywhere.
 */
import * as vscode from 'vscode';
import type { Broker } from '../../elicitation/broker';
import { askSample, sampleSummary } from '../../elicitation/sample-questions';
import { showInfo } from '../notify';
import { isRecord } from '../../base/is-record';

export const TRY_SAMPLE_COMMAND = 'elicitationHost.trySample';
/**
 * The walkthrough's step completes on this, once the sample has been gone through: completed
 * on the command's start instead, the walkthrough moved on to the next step as the sample's
 * confirm opened and took the keyboard from it.
 */
export const SAMPLE_TRIED_CONTEXT = 'elicitationHost.sampleTried';

/**
 * VS Code's walkthrough moves the keyboard focus to the step whose button was clicked a moment
 * after the click (250 ms, its slide's time), and our question keeps its place on screen when
 * the focus leaves it: asked at once, it lost the keys typed into it to the walkthrough.
 */
const AFTER_WALKTHROUGH_FOCUS_MS = 400;

export async function trySampleQuestion(broker: Broker, applyDefaults: boolean, from?: unknown): Promise<void> {
  if (isRecord(from) && from.from === 'walkthrough') await new Promise((resolve) => setTimeout(resolve, AFTER_WALKTHROUGH_FOCUS_MS));
  const answered = await askSample(broker, { signal: new AbortController().signal, applyDefaults });
  await vscode.commands.executeCommand('setContext', SAMPLE_TRIED_CONTEXT, true);
  void showInfo(sampleSummary(answered));
}
