/** AHP's fixed names (the root channel, error codes), what one message may weigh, and the two namings of input requests. Pure. */

export const ROOT_CHANNEL = 'ahp-root://';

export const ERROR_CODES = {
  parseError: -32700,
  methodNotFound: -32601,
  invalidParams: -32602,
  unsupportedProtocolVersion: -32005,
  notFound: -32008,
} as const;

/** What one message from a host may weigh, beside the form limits of limits.ts that apply too. */
export const AHP_LIMITS = {
  /** One WebSocket frame (one JSON-RPC message), in bytes: a long chat's snapshot fits. */
  frameBytes: 16 * 1024 * 1024,
  /** An id or a channel URI, in characters. */
  idChars: 1_024,
  /** A short text: a title, a label, a name, in characters. */
  labelChars: 1_000,
  /** A tool call's input (the command, the arguments), in characters. */
  toolInputChars: 1_000_000,
  /** One typed answer, in characters. */
  answerChars: 100_000,
  /** Sessions watched on one host. */
  sessions: 1_000,
  /** Open input requests and pending tool calls kept per chat. */
  openPerChat: 100,
} as const;

/** Which generation of names a request came in: `chat/input*` (1.139.1, 1.x) or `session/input*` (earlier). */
export type Naming = 'chat' | 'session';
