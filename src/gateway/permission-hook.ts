/**
 * Claude Code's `PermissionRequest` HTTP hook: Claude Code POSTs the permission request
 * (tool name, input, suggestions) as JSON and reads the decision from our answer. The
 * person answers in our prompt; a question that ends unanswered gives no decision (an
 * empty 200), and Claude Code then asks in its own terminal. The guard (token, Host,
 * Origin) has run before this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeJson } from './http-replies';
import type { PermissionAsker } from './permission-asker';
import { hookResponse, parseHookBody, PermissionInputError } from './permission-question';

export async function servePermissionHook(req: IncomingMessage, res: ServerResponse, body: unknown, ask: PermissionAsker): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  let request;
  try {
    request = parseHookBody(body);
  } catch (error) {
    if (!(error instanceof PermissionInputError)) throw error;
    // A non-2xx is a non-blocking error for Claude Code: it asks in its terminal, as it would without us.
    writeJson(res, 400, { error: `Not a PermissionRequest hook body: ${error.message}` });
    return;
  }
  // Claude Code gave up (its hook timeout) or went away: the question closes.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(new Error('Claude Code stopped waiting for the answer'));
  });
  const decision = await ask(request, gone.signal, 'undecided');
  if (gone.signal.aborted) return;
  const answer = hookResponse(decision);
  if (answer === undefined) {
    res.writeHead(200, { 'content-length': 0, 'cache-control': 'no-store' }).end();
    return;
  }
  writeJson(res, 200, answer);
}
