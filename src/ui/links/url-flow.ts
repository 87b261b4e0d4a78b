/**
 * The rest of a link flow: telling the person a review finished, and the "I have finished
 * in the browser" control for flows where only a retry tells the outcome.
 */
import * as vscode from 'vscode';
import type { RequestSource } from '../../elicitation/request';
import { checkUrl } from '../../elicitation/url-check';
import type { UrlFlow } from '../../mcp/ports';
import { showInfo } from '../notify';
import { sourceLabel } from '../text';

export const FINISHED = 'I have finished in the browser';

export function vsCodeUrlFlow(log: vscode.LogOutputChannel): UrlFlow {
  return {
    async finishedInBrowser(source: RequestSource, url: string, signal: AbortSignal): Promise<boolean> {
      const check = checkUrl(url);
      const where = check.ok ? check.host : 'the page';
      const choice = new Promise<string | undefined>((resolve) => {
        void showInfo(`${sourceLabel(source)} continues once you have finished on ${where}.`, FINISHED, 'Cancel').then(resolve);
        signal.addEventListener('abort', () => resolve(undefined), { once: true });
      });
      const answer = await choice;
      if (signal.aborted) return false;
      log.info(`${sourceLabel(source)}: ${answer === FINISHED ? 'finished in the browser' : 'cancelled while waiting for the browser'}`);
      return answer === FINISHED;
    },
    completed(server: string, message: string): void {
      void showInfo(`Review in ${server} completed${message ? `: ${message}` : ''}`);
    },
  };
}
