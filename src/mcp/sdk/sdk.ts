/**
 * The room `src/mcp/sdk/`: the heavy libraries, loaded lazily: this file (the bundle's entry),
 * `sdk-loader` (loads it once), `sdk-shims` (the SDK's validator shim, pointed at our ajv),
 * `server-sdk` (the server half the gateway uses) and `schema-check` (ajv's last check of an
 * answer). Nothing else of `src/mcp` is below it.
 *
 * Everything heavy the connection layer and the gateway need, in one module that is bundled
 * on its own (dist/mcp-sdk.js) and loaded when the first server starts or the gateway's first
 * request comes: the MCP SDK's client and server with one zod, and ajv for the final answer
 * check. Activation stays light when no server runs.
 */
export {
  auth,
  Client,
  createPrivateKeyJwtAuth,
  discoverAndRequestJwtAuthGrant,
  discoverOAuthProtectedResourceMetadata,
  ProtocolError,
  ProtocolErrorCode,
  requestJwtAuthorizationGrant,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
/**
 * The server half, for the gateway (server-sdk.ts says why it is here). Reached with require():
 * bundled here all the same, its code runs only when the gateway's first request needs it, so
 * a server's first start does not pay for it.
 */
export function loadServer(): typeof import('./server-sdk') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./server-sdk') as typeof import('./server-sdk');
}

/**
 * MCP Tasks, both generations (@modelcontextprotocol/ext-tasks): the requester's session
 * and input routing, and the receiver of task-backed questions. The package ships as ES
 * modules only, so it is reached with import() (bundled here all the same), once.
 */
export async function loadTasks() {
  const [client, receiver] = await Promise.all([import('@modelcontextprotocol/ext-tasks/client'), import('@modelcontextprotocol/ext-tasks/receiver')]);
  return {
    createApplicationInputHandler: client.createApplicationInputHandler,
    createTaskSessionEndpointId: client.createTaskSessionEndpointId,
    DispatchError: client.DispatchError,
    TaskCancelledError: client.TaskCancelledError,
    TaskExecutionClosedError: client.TaskExecutionClosedError,
    withTasks: client.withTasks,
    bindTaskReceiver: receiver.bindTaskReceiver,
  };
}
export { SchemaChecker } from './schema-check';

import * as z from 'zod';
/**
 * Accepts any result object as it came: a 2025-era connection would otherwise refuse a
 * result carrying `inputRequests` before we could read it.
 */
export const AnyResultSchema = z.looseObject({});
