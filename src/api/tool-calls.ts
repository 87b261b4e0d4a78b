/**
 * An extension's call of a configured server's tool (`forExtension(id).callTool`): the
 * person allows the extension this server first, before the server starts (a start may
 * ask for saved inputs or a sign-in); then a destructive tool is confirmed on each call;
 * then the call runs with the extension named as its caller, so the server's questions
 * say for whom they are asked.
 */
import { isRecord } from '../base/is-record';
import { CallError } from '../mcp/errors';
import type { ServerManager } from '../mcp/servers/manager';
import { ElicitationRequestError, invalidParams } from './errors';
import { type ConsentExtension, RefusedCallError, type ToolConsents } from '../mcp/tool-consent';

export async function callToolFor(
  manager: ServerManager,
  consents: ToolConsents,
  extension: ConsentExtension,
  call: { readonly server: unknown; readonly tool: unknown; readonly args: unknown; readonly signal: AbortSignal },
): Promise<unknown> {
  const { server, tool, args = {}, signal } = call;
  if (typeof server !== 'string' || typeof tool !== 'string') throw invalidParams('callTool needs the server\'s name and the tool\'s name (strings)');
  if (!isRecord(args)) throw invalidParams('callTool\'s args must be an object');
  const entry = manager.find(server);
  if (!entry) throw invalidParams(`no MCP server "${server}" is configured`);
  // A server that may not start (workspace trust) fails as it would without asking anyone.
  if (entry.blocked) throw new CallError(entry.blocked);
  const target = { id: entry.id, name: entry.definition.name };
  try {
    await whileAsked(consents.admit(extension, target), signal);
    const connection = entry.connection?.state === 'running' ? entry.connection : await manager.start(entry.id);
    const info = connection.tools.find((t) => t.name === tool);
    if (!info) throw invalidParams(`the MCP server "${target.name}" has no tool "${tool}"`);
    await whileAsked(consents.confirm(extension, target, info, args), signal);
    return await manager.callTool(entry.id, tool, args, { signal, caller: { kind: 'agent', name: `Extension: ${extension.name}` } });
  } catch (error) {
    if (error instanceof RefusedCallError) throw new ElicitationRequestError(error.code, error.message);
    throw error;
  }
}

/** A question's answer, or the caller's cancel first (a modal cannot be closed for us: its answer still counts for the next call). */
function whileAsked<T>(asked: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const cancel = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', cancel, { once: true });
    asked.then(resolve, reject).finally(() => signal.removeEventListener('abort', cancel));
  });
}
