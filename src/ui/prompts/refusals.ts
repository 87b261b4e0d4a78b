/**
 * A question the server sent that cannot be shown (a schema outside the elicitation
 * subset, a mode this client does not offer, too many open at once) was refused with a
 * JSON-RPC error naming the problem. The person is told too, once per server in a while,
 * so a flooding server cannot flood the notifications as well.
 */
import * as vscode from 'vscode';
import type { RequestSource } from '../../elicitation/request';
import { showWarning } from '../notify';
import { sourceLabel } from '../text';

const QUIET_MS = 10_000;

export function refusalReporter(log: vscode.LogOutputChannel): (source: RequestSource, error: { readonly code: number; readonly message: string }) => void {
  const lastShown = new Map<string, number>();
  return (source, error) => {
    log.warn(`Refused a question from ${sourceLabel(source)} (${error.code}): ${error.message}`);
    const now = Date.now();
    if (now - (lastShown.get(source.server) ?? -Infinity) < QUIET_MS) return;
    lastShown.set(source.server, now);
    void showWarning(`${sourceLabel(source)} asked a question that cannot be shown, and was told why: ${error.message}`);
  };
}
