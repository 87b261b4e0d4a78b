/**
 * The runner's browser step of a sign-in. By default the system browser, with the redirect
 * coming back to a loopback listener (RFC 8252: 127.0.0.1, a port of the moment, one path);
 * with `--browser fetch`, no browser at all: the authorization URL's HTTP redirects are
 * followed until they reach the redirect URI (for CI against test authorization servers that
 * approve at once; one that shows a login page stops it with a clear error).
 */
import { spawn } from 'node:child_process';
import { childEnvironment } from '../base/child-environment';
import { loopbackRedirect } from '../mcp/sign-in/loopback-redirect';
import type { BrowserStep } from '../mcp/sign-in/sign-in';

/** A person signing in takes time; a redirect that never comes ends the run. */
const WAIT_MS = 5 * 60_000;
const MAX_REDIRECTS = 20;

/** The redirect URI a fetched sign-in names (nothing listens on it: the redirect is read, not followed). */
export const FETCH_REDIRECT_URL = 'http://127.0.0.1:33418/callback';

/** Follows the authorization URL's redirects until one goes to `redirectUrl`; that URL is the answer. */
export function fetchBrowserStep(redirectUrl = FETCH_REDIRECT_URL): BrowserStep {
  return {
    redirectUrl,
    async authorize(authorizationUrl, signal) {
      let url = authorizationUrl;
      for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
        const response = await fetch(url, { redirect: 'manual', signal });
        await response.body?.cancel().catch(() => undefined);
        const location = response.headers.get('location');
        if (!location || response.status < 300 || response.status >= 400) {
          throw new Error(`${url.origin} answered ${response.status} without sending the browser on: this sign-in needs a person (run without --browser fetch)`);
        }
        const next = new URL(location, url);
        if (isRedirectTo(next, redirectUrl)) return next;
        url = next;
      }
      throw new Error(`the sign-in redirected more than ${MAX_REDIRECTS} times without coming back`);
    },
  };
}

function isRedirectTo(url: URL, redirectUrl: string): boolean {
  const target = new URL(redirectUrl);
  return url.origin === target.origin && url.pathname === target.pathname;
}

/** The system browser, and a loopback listener for the redirect; `close()` when the run ends. */
export async function systemBrowserStep(tell: (line: string) => void): Promise<BrowserStep & { close(): Promise<void> }> {
  const loopback = await loopbackRedirect();
  return {
    redirectUrl: loopback.redirectUrl,
    authorize(authorizationUrl, signal) {
      const back = loopback.next(signal, WAIT_MS);
      tell(`Sign in in your browser: ${authorizationUrl.href}`);
      openInBrowser(authorizationUrl.href, tell);
      return back;
    },
    close: () => loopback.close(),
  };
}

function openInBrowser(url: string, tell: (line: string) => void): void {
  const [command, ...args] = process.platform === 'darwin' ? ['open', url] : process.platform === 'win32' ? ['cmd', '/c', 'start', '""', url] : ['xdg-open', url];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, env: childEnvironment(process.env) });
    child.on('error', () => tell('(no browser could be opened here: open the link above yourself)'));
    child.unref();
  } catch {
    tell('(no browser could be opened here: open the link above yourself)');
  }
}
