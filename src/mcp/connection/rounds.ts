/**
 * One call's loop: send the request; while the result asks for input instead of answering
 * (MCP 2026-07-28 input-required rounds, and the draft shape), fulfil every input request
 * and retry; when the server fails it with -32042 (a URL elicitation is required), have
 * the person visit the links and retry once. Written against a small port, so it runs
 * without the SDK: the connection supplies sending, asking and waiting.
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { draftAsSchema, type InputRequired, recognizeInputRequired, retryParams } from '../../elicitation/input-required';
import type { ElicitResult } from '../../elicitation/model';
import { abortMessage, CallError, requiredLinksOf, RpcCode, rpcCodeOf } from '../errors';
import { errorMessage } from '../../base/error-message';
import type { CallProgress, Root, Sampler } from '../ports';

export interface RoundsPort {
  /** The server's name, for messages. */
  readonly server: string;
  /** What is called (a tool, a prompt, a resource), for messages. */
  readonly label: string;
  readonly maxRounds: number;
  /** The call's own signal: its cancel, its timeout, the server stopping. */
  readonly signal: AbortSignal;
  /**
   * Sends the request once. Resolves with the result as the server sent it when it asks for
   * input; rejects with the server's error for -32042, and a CallError for anything else.
   */
  send(params: Record<string, unknown>): Promise<unknown>;
  /** Puts one question (2025 `elicitation/create` params) to the person. */
  elicit(params: unknown, options?: { readonly asForm?: boolean }): Promise<ElicitResult>;
  roots(): readonly Root[];
  /** The call's caller can answer sampling requests; absent: they end the call. */
  readonly sample?: Sampler;
  /**
   * After the person opened a link whose outcome only a retry tells: resolves when they say
   * they have finished (or `completed` settles); throws a CallError when they cancel.
   */
  waitForBrowser(url: string, completed?: Promise<unknown>): Promise<void>;
  /** Remembers an accepted URL elicitation; resolves when the server reports it complete. */
  completion(elicitationId: string, message: string): Promise<void>;
  progress(progress: CallProgress): void;
  log(line: string): void;
}

/** What a call ended by the person in a draft-shape round returns (that shape has no way to send a refusal). */
export const ENDED_BY_PERSON = { content: [{ type: 'text', text: 'You ended this call: it was not retried.' }], isError: true } as const;

export async function runRounds(params: Record<string, unknown>, port: RoundsPort): Promise<unknown> {
  const { server, label } = port;
  let current = params;
  let urlRetried = false;
  for (let round = 1; ; ) {
    let result: unknown;
    try {
      result = await port.send(current);
    } catch (error) {
      const required = requiredLinksOf(error);
      if (!required) throw error;
      // -32042: visit the links, then retry the same call once; never loop.
      if (urlRetried || required.links.length === 0) {
        throw new CallError(`${server} still requires a link to be visited for ${label} (${required.message}); not retrying again`, RpcCode.urlElicitationRequired);
      }
      urlRetried = true;
      port.progress({ message: `${server} needs you to open a link` });
      await visitRequiredLinks(required.links, port);
      continue;
    }
    const inputRequired = recognizeInputRequired(result);
    if (!inputRequired) return result;
    if (round > port.maxRounds) {
      throw new CallError(
        `${server} asked for more input ${round} times for ${label}; stopped at the limit of ${port.maxRounds} rounds (setting elicitationHost.inputRequired.maxRounds)`,
      );
    }
    port.progress({ round, message: `round ${round}: ${server} needs your input` });
    port.log(`${label}: input required, round ${round} (${inputRequired.shape} shape, ${inputRequired.requests.length} request(s))`);
    const responses = await fulfil(inputRequired, port);
    if (responses === 'ended') return ENDED_BY_PERSON;
    current = retryParams(params, inputRequired, responses);
    round++;
  }
}

/** Answers every input request of one round. 'ended' when the person ended a draft-shape round. */
async function fulfil(inputRequired: InputRequired, port: RoundsPort): Promise<Record<string, unknown> | 'ended'> {
  const { server, signal } = port;
  if (inputRequired.shape === 'draft') {
    const schema = draftAsSchema(inputRequired.requests);
    const result = await port.elicit({ message: inputRequired.description ?? `${server} needs more input for ${port.label}`, requestedSchema: schema }, { asForm: true });
    if (result.action !== 'accept') return 'ended';
    return { ...result.content };
  }
  const responses: Record<string, unknown> = {};
  for (const request of inputRequired.requests) {
    switch (request.method) {
      case 'elicitation/create': {
        const result = await port.elicit(request.params).catch((error: unknown) => {
          throw new CallError(`${server} asked a question this client cannot show: ${errorMessage(error)}`, rpcCodeOf(error));
        });
        if (signal.aborted) throw new CallError(abortMessage(signal));
        if (request.params.mode === 'url' && result.action === 'accept') {
          // No completion notification in this revision: the retry tells the outcome, once the person is done.
          await port.waitForBrowser(String(request.params.url));
        }
        responses[request.key] = result;
        break;
      }
      case 'roots/list':
        responses[request.key] = { roots: port.roots().map((r) => ({ ...r })) };
        break;
      case 'sampling/createMessage':
        if (!port.sample) throw missingCapability(server, 'sampling (an LLM completion)');
        responses[request.key] = await port.sample(request.params as unknown as CreateMessageRequestParams, signal);
        if (signal.aborted) throw new CallError(abortMessage(signal));
        break;
      default:
        throw missingCapability(server, request.requested);
    }
  }
  return responses;
}

/** As the SDK's own driver does for a request it has no handler for: the call ends with the reason. */
function missingCapability(server: string, what: string): CallError {
  return new CallError(`${server} asked for ${what}, which this client does not offer (it did not declare that capability)`, RpcCode.missingClientCapability);
}

/**
 * The -32042 path: the server needs the person to visit links before the call can work.
 * Each is presented; when every one is completed (the server's notification) or the
 * person says they have finished in the browser, the call may be retried.
 */
async function visitRequiredLinks(links: readonly unknown[], port: RoundsPort): Promise<void> {
  const completions: Array<Promise<void>> = [];
  for (const entry of links) {
    const raw = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const result = await port.elicit({ ...raw, mode: 'url' });
    if (port.signal.aborted) throw new CallError(abortMessage(port.signal));
    if (result.action !== 'accept') {
      throw new CallError(`${port.label} on ${port.server} needs you to open ${String(raw.url)}; you chose to ${result.action}, so it was not retried`);
    }
    if (typeof raw.elicitationId === 'string') completions.push(port.completion(raw.elicitationId, String(raw.message ?? '')));
  }
  const first = links[0] as { url?: unknown } | undefined;
  await port.waitForBrowser(String(first?.url ?? ''), Promise.all(completions));
}
