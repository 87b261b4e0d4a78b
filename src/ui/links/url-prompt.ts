/**
 * The room `src/ui/links/`: a link asked about once and opened only on the person's click:
 * this file (the prompt), `url-flow` (what follows it), `link-trust` and `trusted-domains`
 * (VS Code's own link protection, answered for the one origin agreed to).
 *
 * A URL-mode question: who asks, then the site (in ASCII, as the browser will use it),
 * the whole link and every warning, and only after them the server's message, capped
 * and labelled as the server's (so it cannot pass for a line of ours). The link opens in
 * the person's browser only when they choose Open; nothing is fetched before that.
 * A link from a call the person started gets a dialog; any other waits its turn in the
 * quick input like every question (see NativePrompter).
 */
import * as vscode from 'vscode';
import type { RequestSource, UrlInputRequest } from '../../elicitation/request';
import type { UrlCheck } from '../../elicitation/url-check';
import { openAgreedLink } from './link-trust';
import type { Dialog } from '../notify';
import { showWarning } from '../notify';
import { declineRows, messageRows, type PromptFrame, type Row, runQuickPick, separator, type StepResult } from '../quick-input/quick-input-frame';
import { escapeIcons, oneLine, plain, sourceLabel, wrap } from '../text';

type CheckedLink = Extract<UrlCheck, { ok: true }>;

/** More than a link needs explaining; the rest of a longer message is cut. */
export const LINK_MESSAGE_FITS = 500;

/** The host the browser goes to: the ASCII form when it differs from what the Unicode form reads as. */
export function linkSite(check: CheckedLink): string {
  return `${check.asciiHost ?? check.host}${check.port ? `:${check.port}` : ''}`;
}

/** The heading: who asks for which site. */
export function linkHeading(source: RequestSource, check: CheckedLink): string {
  // An extension or an ACP agent is named as the label says it (with the agent's session).
  const who = source.requester === 'extension' || source.requester === 'agent' ? sourceLabel(source) : `"${source.server}"${source.tool ? ` (${source.tool})` : ''}`;
  return oneLine(`${who} asks you to open a link to ${linkSite(check)}`, 300);
}

/** Site, link and warnings, in that order: what the person must see before any server text. */
export function linkFacts(check: CheckedLink): string[] {
  return [`Site:  ${linkSite(check)}`, `Link:  ${check.url}`, ...check.warnings.map((w) => `⚠ ${w}`)];
}

function capped(message: string): string {
  return plain(message, LINK_MESSAGE_FITS).trim();
}

/** The dialog for a link from a call the person started: Open, or Decline (Escape cancels). */
export function linkDialog(request: UrlInputRequest, check: CheckedLink, open: vscode.MessageItem, decline: vscode.MessageItem): Dialog<vscode.MessageItem> {
  const message = capped(request.message);
  return {
    kind: 'info',
    heading: linkHeading(request.source, check),
    detail: [...linkFacts(check).flatMap((line) => [line, '']), `The server's message:`, message || '(none)'].join('\n'),
    buttons: [open, decline],
  };
}

/**
 * The same in the quick input, for every other link: the facts as rows, the message
 * after them, then Open, Decline, and "Decline and stop asking" where offered. Decline is
 * preselected: opening takes a deliberate choice.
 */
export function askLink(frame: PromptFrame, request: UrlInputRequest, check: CheckedLink): Promise<StepResult> {
  return runQuickPick(
    frame,
    (pick) => {
      const facts = linkFacts(check).flatMap((line) => wrap(line)).map((line): Row => ({ label: escapeIcons(line), role: 'message', alwaysShow: true }));
      const open: Row = { label: '$(link-external) Open in the browser', description: linkSite(check), role: 'accept', alwaysShow: true };
      const declines = declineRows(frame);
      pick.items = [...facts, separator("The server's message"), ...messageRows(capped(request.message) || '(none)'), separator(), open, ...declines];
      pick.activeItems = [declines[0]];
      pick.placeholder = oneLine(`Open a link to ${linkSite(check)}?`, 200);
    },
    (pick) => (pick.selectedItems[0]?.role === 'accept' ? { kind: 'value', value: undefined } : undefined),
  );
}

/** Opens the link the person chose to open, exactly as shown, asking nothing more (link-trust.ts). */
export async function openLink(log: vscode.LogOutputChannel, source: RequestSource, check: CheckedLink): Promise<boolean> {
  const opened = await openAgreedLink(check.url, log);
  log.info(`Opened ${check.url} for ${sourceLabel(source)} (${opened ? 'browser' : 'not opened'})`);
  return opened;
}

/** Tells the person a link was refused, and why in the log. */
export function reportRefusedLink(log: vscode.LogOutputChannel, source: RequestSource, url: string, reason: string): void {
  log.warn(`Refused a link from ${sourceLabel(source)}: ${reason} (${url.slice(0, 200)}${url.length > 200 ? '…' : ''})`);
  void showWarning(`A link from ${sourceLabel(source)} was refused: ${reason}.`);
}
