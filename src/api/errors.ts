/** The API's refusals, as the d.ts describes them: a JSON-RPC style code and a message naming the field, limit or who refused. */
export class ElicitationRequestError extends Error {
  override readonly name = 'ElicitationRequestError' as const;
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** -32602: the request itself is at fault (a field, an unknown server or tool, an id that is no installed extension). */
export const invalidParams = (message: string): ElicitationRequestError => new ElicitationRequestError(-32602, message);
