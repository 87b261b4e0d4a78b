/**
 * The part of `@agentclientprotocol/sdk` we use, as one module: the extension loads it the
 * first time an agent starts (scripts/build.mjs makes it dist/acp-sdk.js), the runner and
 * the tests bundle or import it directly.
 */
export { client, ndJsonStream, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
