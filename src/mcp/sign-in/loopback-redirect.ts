/**
 * A loopback redirect for a sign-in (RFC 8252): a listener on 127.0.0.1, a port of the
 * moment and one path, that takes the authorization server's redirect back and answers
 * the browser with a line of text. Only a redirect some sign-in waits for is taken (the
 * state it carries is checked by the sign-in).
 */
import { createServer, type Server } from 'node:http';

const CALLBACK_PATH = '/callback';

export interface LoopbackRedirect {
  readonly redirectUrl: string;
  /** The next redirect back, as its full URL. */
  next(signal: AbortSignal, timeoutMs: number): Promise<URL>;
  close(): Promise<void>;
}

/**
 * Starts the listener. With `take`, every redirect goes to it (true: it was awaited);
 * without, to the caller of `next()`.
 */
export async function loopbackRedirect(take?: (url: URL) => boolean): Promise<LoopbackRedirect> {
  let waiting: ((url: URL) => void) | undefined;
  let redirectUrl = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirectUrl);
    const taken = url.pathname === CALLBACK_PATH && (take ? take(url) : waiting !== undefined);
    if (!taken) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Signed in: you can close this tab and go back.');
    waiting?.(url);
    waiting = undefined;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  redirectUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${CALLBACK_PATH}`;
  return {
    redirectUrl,
    next: (signal, timeoutMs) =>
      new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no sign-in came back within ${Math.round(timeoutMs / 60_000)} minutes`)), timeoutMs);
        waiting = (url) => {
          clearTimeout(timer);
          resolve(url);
        };
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          waiting = undefined;
          reject(signal.reason instanceof Error ? signal.reason : new Error('the sign-in was stopped'));
        }, { once: true });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
