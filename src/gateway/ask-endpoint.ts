/**
 * `POST /ask`: a question from a process in one of the window's terminals, asked through
 * the broker (so our prompts, the queue, the History, mutes and the per-asker limit all
 * apply) and answered `{action, content?}`. The guard (Host, Origin, token) and the body's
 * size bound have run before this. The caller's connection closing withdraws the question:
 * the script was stopped (Ctrl-C) or the proxied agent went away.
 *
 *   200 {action, content?}     answered (cancel too: the person dismissed it)
 *   400 {error}                the body or the question's schema is not one we ask; names the field
 *   405                        not a POST
 *   429 {error}                this asker already has too many questions waiting
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Broker, TooManyRequestsError } from '../elicitation/broker';
import { InvalidSchemaError } from '../elicitation/schema';
import { writeJson } from './http-replies';
import { AskBodyError, describeQuestionProblems, readAskBody } from './outside-question';

export async function serveAsk(req: IncomingMessage, res: ServerResponse, body: unknown, broker: Broker): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  let question;
  try {
    question = readAskBody(body);
  } catch (error) {
    if (!(error instanceof AskBodyError)) throw error;
    writeJson(res, 400, { error: `Not a question: ${error.message}` });
    return;
  }
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(new Error('the terminal stopped waiting for the answer'));
  });
  try {
    const result = await broker.elicit(question.params, { source: question.source, signal: gone.signal, applyDefaults: true });
    if (gone.signal.aborted) return;
    writeJson(res, 200, result.action === 'accept' && result.content ? { action: 'accept', content: result.content } : { action: result.action });
  } catch (error) {
    if (error instanceof InvalidSchemaError) {
      writeJson(res, 400, { error: `Not a question we ask: ${describeQuestionProblems(error.problems)}` });
      return;
    }
    if (error instanceof TooManyRequestsError) {
      writeJson(res, 429, { error: error.message });
      return;
    }
    throw error;
  }
}
