/**
 * Asks in the VS Code window whose terminal we run in: its gateway's `POST /ask`, found
 * through the variables VS Code gives its terminals (ELICITATION_HOST_MCP_URL, _TOKEN).
 * Plain node:http, not fetch: a person may take longer to answer than fetch waits for
 * response headers (five minutes). Stopping (Ctrl-C, a cancelled turn) closes the request,
 * which withdraws the question from the window.
 */
import { request as httpRequest } from 'node:http';
import type { Content, ElicitResult } from '../elicitation/model';
import { isRecord } from '../base/is-record';
import { ASK_PATH, type AskBody, TOKEN_VARIABLE, URL_VARIABLE } from '../gateway/contract';

export interface WindowAddress {
  /** The gateway's `/ask` URL. */
  readonly url: URL;
  readonly token: string;
}

/** The window could not be reached at all (VS Code closed, the variables are stale): the caller may ask elsewhere. */
export class WindowUnreachableError extends Error {}

/** The question was refused (a malformed schema, too many waiting, a bad address): nobody was asked. */
export class QuestionRefusedError extends Error {}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The window's gateway from the environment, or undefined when we do not run in one of its
 * terminals. Throws for a URL that is not a loopback http one: the token is never sent elsewhere.
 */
export function windowAddress(env: Readonly<Record<string, string | undefined>>): WindowAddress | undefined {
  const base = env[URL_VARIABLE];
  const token = env[TOKEN_VARIABLE];
  if (!base || !token) return undefined;
  let url: URL;
  try {
    url = new URL(ASK_PATH, base);
  } catch {
    throw new QuestionRefusedError(`${URL_VARIABLE} is not a URL: ${JSON.stringify(base)}`);
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) {
    throw new QuestionRefusedError(`${URL_VARIABLE} must be an http address on this machine (127.0.0.1), not ${url.origin}: the token is not sent anywhere else`);
  }
  return { url, token };
}

function readResult(status: number, text: string): ElicitResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new QuestionRefusedError(`the window answered ${status} with something other than JSON`);
  }
  if (status !== 200) {
    // /ask answers {error}; the guard answers JSON-RPC's {error: {message}}.
    const error = isRecord(body) ? body.error : undefined;
    const message = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : `status ${status}`;
    throw new QuestionRefusedError(message);
  }
  if (!isRecord(body) || (body.action !== 'accept' && body.action !== 'decline' && body.action !== 'cancel')) {
    throw new QuestionRefusedError('the window answered without an action');
  }
  if (body.action === 'accept' && isRecord(body.content)) return { action: 'accept', content: body.content as Content };
  return { action: body.action };
}

/** Puts the question to the window; rejects with WindowUnreachableError, QuestionRefusedError, or the signal's reason. */
export function askWindow(address: WindowAddress, body: AskBody, signal: AbortSignal): Promise<ElicitResult> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      address.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${address.token}` },
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve(readResult(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(signal.reason instanceof Error ? signal.reason : new Error('the question was withdrawn'));
      else if (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET' || error.code === 'EHOSTUNREACH') {
        reject(new WindowUnreachableError(`the VS Code window at ${address.url.origin} cannot be reached (${error.code})`));
      } else reject(error);
    });
    req.end(payload);
  });
}
