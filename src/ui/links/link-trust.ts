/**
 * One consent for one link. VS Code's link protection asks "Do you want Code to open the
 * external website?" for every link an extension opens to a site the person has not
 * trusted, and no API lets an extension answer it; so a link the person has just agreed to
 * in our prompt (which says who asks and warns about look-alikes) would be asked about
 * twice. VS Code keeps its trusted sites in the document "Configure Trusted Domains" edits
 * (`trustedDomains:/Trusted Domains`): for the one open the person agreed to, the link's own
 * origin (scheme, host, port: nothing wider) is added there, and the document is put back
 * exactly as it was right after. Where that document cannot be read or written (another
 * VS Code, another editor), nothing is changed and VS Code asks its question as before.
 */
import * as vscode from 'vscode';
import { originOf, withTrustedOrigin } from './trusted-domains';
import { errorMessage } from '../../base/error-message';

const TRUSTED_DOMAINS = vscode.Uri.parse('trustedDomains:/Trusted Domains');

/**
 * Opens `url` in the person's browser; VS Code's second question is skipped when its list
 * can be lent the link's origin for this one open. `url` is the string as shown (a Uri would
 * be re-encoded on its way: an escaped query such as redirect_uri=https%3A... would change).
 */
export function openAgreedLink(url: string, log: vscode.LogOutputChannel): Promise<boolean> {
  // One at a time: two overlapping opens would each put back the list the other lent to.
  const opened = queue.then(() => openLent(url, log));
  queue = opened.then(
    () => undefined,
    () => undefined,
  );
  return opened;
}

let queue: Promise<void> = Promise.resolve();

async function openLent(url: string, log: vscode.LogOutputChannel): Promise<boolean> {
  const origin = originOf(url);
  let before: Uint8Array | undefined;
  let lent: string | undefined;
  if (origin) {
    try {
      before = await vscode.workspace.fs.readFile(TRUSTED_DOMAINS);
      lent = withTrustedOrigin(new TextDecoder().decode(before), origin);
      if (lent !== undefined) await vscode.workspace.fs.writeFile(TRUSTED_DOMAINS, new TextEncoder().encode(lent));
    } catch (error) {
      // Not this VS Code's document (or none): its own question stays.
      lent = undefined;
      log.info(`VS Code's trusted sites could not be read (${errorMessage(error)}); it may ask about ${origin} once more.`);
    }
  }
  try {
    return await vscode.env.openExternal(url as unknown as vscode.Uri);
  } finally {
    if (lent !== undefined && before) {
      // Put back exactly as it was: the site is trusted for the open the person agreed to, no longer.
      await vscode.workspace.fs.writeFile(TRUSTED_DOMAINS, before).then(undefined, (error: unknown) => {
        log.error(`Could not take ${origin} off VS Code's trusted sites again: ${errorMessage(error)}. Remove it with the command "Manage Trusted Domains".`);
      });
    }
  }
}
