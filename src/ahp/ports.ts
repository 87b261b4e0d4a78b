/**
 * What a host of `src/ahp` (the VS Code UI, the runner, the tests) hands it besides the
 * broker: where it logs. A log line never carries the connection token (the address it
 * shows is the endpoint's display, without the token) nor an answer's value.
 */
export interface AhpLog {
  info(message: string): void;
  /** A message from a host that was dropped, a refused question, a reconnect. */
  warn(message: string): void;
}

export const SILENT_LOG: AhpLog = { info: () => undefined, warn: () => undefined };
