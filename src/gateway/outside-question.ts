/**
 * A question from outside VS Code's own clients, brought to the gateway's `POST /ask` by a
 * process of the window's terminals (`elicitation-host ask`, `elicitation-host acp-proxy`):
 * the body's shape (contract.ts `AskBody`), read as untrusted input, naming the field at
 * fault. Pure.
 *
 *   { "from": "git",                   the command asking (its own word: shown as "Terminal: git")
 *     "agent"?: true,                  it is an ACP agent run by acp-proxy
 *     "tool"?: "Choose a colour",      what it was doing (an agent's tool call)
 *     "session"?: "fix the tests",     the agent's session
 *     "destructive"?: true,            a form asking to go ahead with something that cannot be undone
 *     "question": { MCP elicitation/create params: form (mode optional) or url } }
 *
 * Who asks: only the token proves anything, and it proves the asker runs in one of this
 * window's terminals (or was handed the token). So the gateway, not the caller, writes
 * "Terminal: " before the name: a caller cannot pass for a configured server or an extension.
 */
import type { FormParams, UrlParams } from '../elicitation/broker';
import { type ParamsEdge, readElicitParams } from '../elicitation/elicit-params';
import type { SchemaProblem } from '../elicitation/schema';
import { isRecord } from '../base/is-record';
import { terminalSafe } from '../elicitation/plain-text';
import type { RequestSource } from '../elicitation/request';

/** The prefix every outside asker is shown with. */
export const TERMINAL_PREFIX = 'Terminal: ';
/** How much of a name, tool or session is shown. */
const NAME_FITS = 60;

/** The body's shape is wrong: 400 with this message. */
export class AskBodyError extends Error {}

/** One line of visible text, at most `NAME_FITS` characters; undefined when nothing visible is left. */
function oneLine(value: string): string | undefined {
  const text = terminalSafe(value).replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  return text.length > NAME_FITS ? `${text.slice(0, NAME_FITS - 1)}…` : text;
}

function optionalText(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new AskBodyError(`${field} must be a string`);
  return oneLine(value);
}

function optionalFlag(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new AskBodyError(`${field} must be true or false`);
  return value;
}

/** The question, read as every edge's `elicitation/create` params are (elicitation/elicit-params.ts), named where it sits in the body. */
const QUESTION: ParamsEdge = { prefix: 'question.', error: (message) => new AskBodyError(message) };

function readQuestion(raw: unknown): FormParams | UrlParams {
  if (!isRecord(raw)) throw new AskBodyError('question must be an object: the params of an elicitation/create');
  return readElicitParams(raw, QUESTION);
}

/** The question and who asks, from a `/ask` body. Throws AskBodyError naming the field. */
export function readAskBody(body: unknown): { readonly params: FormParams | UrlParams; readonly source: RequestSource } {
  if (!isRecord(body)) throw new AskBodyError('the body must be a JSON object with "from" and "question"');
  if (typeof body.from !== 'string') throw new AskBodyError('from must be a string: the name of the command asking');
  const from = oneLine(body.from);
  if (from === undefined) throw new AskBodyError('from must name the command asking in visible text');
  const agent = optionalFlag(body, 'agent');
  const tool = optionalText(body, 'tool');
  const session = optionalText(body, 'session');
  const destructive = optionalFlag(body, 'destructive');
  const params = readQuestion(body.question);
  // A destructive form is one the person's own command asks (they ran it in their terminal): the modal a call they started gets.
  const asForm = params.mode !== 'url' && destructive;
  const source: RequestSource = {
    server: `${TERMINAL_PREFIX}${from}`,
    ...(agent && { requester: 'agent' as const }),
    ...(tool !== undefined && { tool }),
    ...(session !== undefined && { session }),
    ...(asForm && { destructive: true, personStarted: true }),
  };
  return { params, source };
}

/** A refused schema's problems, each where it is in the body (`question.requestedSchema.properties.x: ...`). */
export function describeQuestionProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `question.${p.path === 'message' || p.path.startsWith('requestedSchema') ? p.path : `requestedSchema.${p.path}`}: ${p.message}`).join('; ');
}
