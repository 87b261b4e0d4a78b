/**
 * Multi round-trip requests (SEP-2322, MCP 2026-07-28): recognising a result that asks for
 * input instead of answering, and building the retry. Two shapes are understood:
 *
 * - the specification's: `resultType: "input_required"`, `inputRequests` a map from
 *   server-chosen keys to whole requests, an optional opaque `requestState`;
 * - an earlier draft's: `inputRequests` an array of `{id, kind, description, required}`
 *   plus a `requestState`, recognised only when both are non-empty.
 *
 * Anything half-shaped is an ordinary result, so a broken server cannot make us loop.
 */
import { isRecord } from '../base/is-record';

export type EmbeddedRequest =
  | { readonly key: string; readonly method: 'elicitation/create'; readonly params: Record<string, unknown> }
  | { readonly key: string; readonly method: 'roots/list' }
  | { readonly key: string; readonly method: 'sampling/createMessage'; readonly params: Record<string, unknown> }
  | { readonly key: string; readonly method: 'unsupported'; readonly requested: string };

export interface DraftInputRequest {
  readonly id: string;
  readonly kind: string;
  readonly description: string;
  readonly required: boolean;
}

export type InputRequired =
  | { readonly shape: 'spec'; readonly requests: readonly EmbeddedRequest[]; readonly requestState?: string }
  | {
      readonly shape: 'draft';
      readonly requests: readonly DraftInputRequest[];
      readonly requestState: string;
      readonly description?: string;
    };

function embedded(key: string, value: unknown): EmbeddedRequest {
  const method = isRecord(value) ? value.method : undefined;
  if (method === 'elicitation/create' && isRecord(value) && isRecord(value.params)) {
    return { key, method, params: value.params };
  }
  if (method === 'roots/list') return { key, method };
  // Relayed as sent to whoever can sample (the gateway's downstream client).
  if (method === 'sampling/createMessage') return { key, method, params: isRecord(value) && isRecord(value.params) ? value.params : {} };
  return { key, method: 'unsupported', requested: typeof method === 'string' ? method : JSON.stringify(method) ?? 'nothing' };
}

/** The input request a result carries, or undefined for an ordinary result. */
export function recognizeInputRequired(result: unknown): InputRequired | undefined {
  if (!isRecord(result)) return undefined;
  const { inputRequests, requestState } = result;
  if (result.resultType === 'input_required' && isRecord(inputRequests) && Object.keys(inputRequests).length > 0) {
    if (requestState !== undefined && typeof requestState !== 'string') return undefined;
    return {
      shape: 'spec',
      requests: Object.entries(inputRequests).map(([key, value]) => embedded(key, value)),
      ...(requestState !== undefined && { requestState }),
    };
  }
  if (Array.isArray(inputRequests) && inputRequests.length > 0 && typeof requestState === 'string' && requestState !== '') {
    const requests: DraftInputRequest[] = [];
    for (const entry of inputRequests) {
      if (!isRecord(entry) || typeof entry.id !== 'string' || entry.id === '') return undefined;
      requests.push({
        id: entry.id,
        kind: typeof entry.kind === 'string' ? entry.kind : 'string',
        description: typeof entry.description === 'string' ? entry.description : entry.id,
        // The draft's default: a request is required unless it says otherwise.
        required: entry.required !== false,
      });
    }
    return {
      shape: 'draft',
      requests,
      requestState,
      ...(typeof result.description === 'string' && { description: result.description }),
    };
  }
  return undefined;
}

const DRAFT_KIND_TYPES: Record<string, string> = {
  string: 'string',
  text: 'string',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
};

/** The draft's requests as one elicitation schema: field = request id, type from kind. */
export function draftAsSchema(requests: readonly DraftInputRequest[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      requests.map((r) => [r.id, { type: DRAFT_KIND_TYPES[r.kind] ?? 'string', title: r.id, description: r.description }]),
    ),
    required: requests.filter((r) => r.required).map((r) => r.id),
  };
}

/**
 * The retry: the original params, untouched, plus the answers and the request state echoed
 * exactly as received (and only when it was sent).
 */
export function retryParams(
  original: Record<string, unknown>,
  inputRequired: InputRequired,
  responses: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (inputRequired.shape === 'draft') {
    return {
      ...original,
      inputResponses: Object.entries(responses).map(([id, value]) => ({ id, value })),
      requestState: inputRequired.requestState,
    };
  }
  return {
    ...original,
    inputResponses: { ...responses },
    ...(inputRequired.requestState !== undefined && { requestState: inputRequired.requestState }),
  };
}
