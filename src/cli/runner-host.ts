/**
 * The broker and the server log every headless command runs with (`call`, `call-all`,
 * `serve`): refused links are announced on the output, servers' stderr is relayed, and
 * errors are printed only where the command asks for them.
 */
import type { Prompter } from '../elicitation/broker';
import { InputStore } from '../elicitation/store';
import { createBroker } from '../mcp/create-broker';
import type { ServerLog } from '../mcp/ports';
import { announceRefusedLink } from './announce';
import { type Output, relayStderr } from './output';

export function runnerHost(prompter: Prompter, out: Output, options: { readonly printErrors: boolean }) {
  const store = new InputStore();
  const broker = createBroker({
    store,
    prompter,
    onLinkRefused: (source, url, reason) => announceRefusedLink(out, source, url, reason),
  });
  const log: ServerLog = {
    info: () => undefined,
    warn: () => undefined,
    error: options.printErrors ? (message) => out.error(message) : () => undefined,
    trace: () => undefined,
    traceEnabled: false,
    stderr: relayStderr,
  };
  return { store, broker, log };
}
