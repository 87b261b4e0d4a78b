/**
 * A URL-mode question: the person sees who asks, the message, the site on its own line,
 * the whole link and every warning, and the link opens in their browser only when they
 * click Open. Nothing is fetched before that. A link that is not a web page is refused.
 */
import * as vscode from 'vscode';
import type { AskOptions, Outcome } from '../elicitation/broker';
import type { RequestSource, UrlInputRequest } from '../elicitation/request';
import { checkUrl, type UrlCheck } from '../elicitation/url-check';
import { linkSafe, oneLine, sourceLabel } from './text';

export function describeLink(check: Extract<UrlCheck, { ok: true }>): string {
  const site = check.asciiHost ? `${check.host}   (the browser goes to ${check.asciiHost})` : check.host;
  return [`Site:  ${site}${check.port ? `:${check.port}` : ''}`, '', check.url, ...check.warnings.map((w) => `\n⚠ ${w}`)].join('\n');
}

/** Tells the person a link was refused, and why in the log. */
export function reportRefusedLink(log: vscode.LogOutputChannel, source: RequestSource, url: string, reason: string): void {
  log.warn(`Refused a link from ${sourceLabel(source)}: ${reason} (${url.slice(0, 200)}${url.length > 200 ? '…' : ''})`);
  void vscode.window.showWarningMessage(linkSafe(`A link from ${sourceLabel(source)} was refused: ${reason}.`, 400));
}

export class UrlPrompt {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  async ask(request: UrlInputRequest, options: AskOptions): Promise<Outcome> {
    const check = checkUrl(request.url);
    // The broker refuses bad links before they get here; this only narrows the type.
    if (!check.ok) return { action: 'decline' };
    const open: vscode.MessageItem = { title: 'Open' };
    const decline: vscode.MessageItem = { title: 'Decline' };
    const choice = await vscode.window.showInformationMessage(
      // The site in the dialog's heading, the one line a dialog emphasises.
      oneLine(`"${request.source.server}"${request.source.tool ? ` (${request.source.tool})` : ''} asks you to open a link to ${check.host}`, 300),
      { modal: true, detail: `${request.message}\n\n${describeLink(check)}` },
      open,
      decline,
    );
    if (options.signal.aborted) return { action: 'cancel' };
    if (choice === open) {
      // The string itself, not a Uri: a Uri is re-encoded on its way to the browser (an
      // escaped query such as redirect_uri=https%3A... would change); the extension host
      // accepts a string here and passes it on untouched.
      const opened = await vscode.env.openExternal(check.url as unknown as vscode.Uri);
      this.log.info(`Opened ${check.url} for ${sourceLabel(request.source)} (${opened ? 'browser' : 'not opened'})`);
      return opened ? { action: 'accept' } : { action: 'cancel' };
    }
    return choice === decline ? { action: 'decline' } : { action: 'cancel' };
  }
}
