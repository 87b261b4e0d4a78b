/**
 * The reference "everything" MCP server, run from the pinned devDependency
 * (`@modelcontextprotocol/server-everything`, the version the held-out tests pin) over stdio.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerDefinition } from '../../src/mcp/config/config';
import type { ServerConnection } from '../../src/mcp/connection/connection';
import { REPO } from './servers';
import { waitUntil } from './wait';

export const EVERYTHING_ENTRY = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export function everythingDefinition(name = 'everything'): ServerDefinition {
  if (!existsSync(EVERYTHING_ENTRY)) {
    throw new Error('The reference server is not installed: run "npm ci" (it is the devDependency @modelcontextprotocol/server-everything).');
  }
  return { name, source: { kind: 'user' }, config: { type: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: {} } };
}

/** Its tools that depend on what the client declared are registered after initialization: waits for them. */
export function waitForTools(connection: ServerConnection, names: readonly string[]): Promise<true> {
  return waitUntil(`${names.join(', ')} to be listed`, () => names.every((n) => connection.tools.some((t) => t.name === n)));
}
