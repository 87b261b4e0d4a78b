/**
 * The one place a Broker is wired: the extension, the command-line runner and the tests
 * differ only in their prompter and in how a refused link is reported.
 */
import { Broker, type BrokerOptions, type ContentCheck, type Prompter } from '../elicitation/broker';
import type { InputStore } from '../elicitation/store';
import type { SchemaChecker } from './sdk/schema-check';
import { loadSdk } from './sdk/sdk-loader';

export interface CreateBrokerOptions {
  readonly store: InputStore;
  readonly prompter: Prompter;
  /** Ask everything in the form (default: never). Read for every question. */
  readonly forceForm?: () => boolean;
  readonly onLinkRefused?: BrokerOptions['onLinkRefused'];
  /** The person stopped this server asking for now: its questions are declined unseen. */
  readonly isMuted?: BrokerOptions['isMuted'];
  /** Open questions one server may have (default: the broker's, 10). */
  readonly maxOpenPerServer?: number;
  /** The final check of accepted content (default: ajv, loaded on the first answer). */
  readonly checkContent?: ContentCheck;
}

/**
 * ajv against the schema the server sent. It travels in the SDK bundle, loaded when the
 * first server starts; the first answer loads it if no server has (an API question).
 */
export function lazySchemaCheck(): ContentCheck {
  let checker: SchemaChecker | undefined;
  return async (schema, content) => {
    checker ??= new (await loadSdk()).SchemaChecker();
    return checker.check(schema, content);
  };
}

export function createBroker(options: CreateBrokerOptions): Broker {
  return new Broker({
    store: options.store,
    prompter: options.prompter,
    checkContent: options.checkContent ?? lazySchemaCheck(),
    forceForm: options.forceForm ?? (() => false),
    ...(options.onLinkRefused && { onLinkRefused: options.onLinkRefused }),
    ...(options.isMuted && { isMuted: options.isMuted }),
    ...(options.maxOpenPerServer !== undefined && { maxOpenPerServer: options.maxOpenPerServer }),
  });
}
