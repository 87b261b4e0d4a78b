/**
 * Our built-in MCP server `elicitation-host`, with one tool in the contract of Claude
 * Code's `--permission-prompt-tool` (for `claude -p`, where no terminal prompt exists):
 * input `{tool_name, input, tool_use_id?}`, result one text block holding
 * `{"behavior":"allow","updatedInput":{...}}` or `{"behavior":"deny","message":"..."}`.
 * The person answers in our prompt; a dismissed question denies.
 */
import type { Server } from '@modelcontextprotocol/server';
import type { InputStore } from '../elicitation/store';
import { serverSdk } from '../mcp/sdk/sdk-loader';
import { PERMISSION_SERVER_NAME, PERMISSION_TOOL } from './contract';
import { SERVED_PROTOCOL_VERSIONS } from './forwarding';
import type { PermissionAsker } from './permission-asker';
import { parsePromptToolInput, PermissionInputError, promptToolText } from './permission-question';
import { ProgressRelay } from './progress-relay';

const TOOL = {
  name: PERMISSION_TOOL,
  title: 'Ask the person in VS Code',
  description:
    "Claude Code's permission prompt (--permission-prompt-tool): asks the person in VS Code whether the tool may run with this input, and answers allow or deny.",
  inputSchema: {
    type: 'object' as const,
    properties: {
      tool_name: { type: 'string', description: 'The tool asking for permission' },
      input: { type: 'object', description: 'The input it would run with' },
      tool_use_id: { type: 'string', description: 'The tool use request id' },
    },
    required: ['tool_name', 'input'],
  },
  annotations: { readOnlyHint: true },
};

export interface PermissionServerDeps {
  readonly ask: PermissionAsker;
  readonly version: string;
  readonly store?: InputStore;
  readonly heartbeatMs?: number;
}

export function createPermissionServer(deps: PermissionServerDeps): Server {
  const { ProtocolError, ProtocolErrorCode, Server } = serverSdk();
  const server = new Server(
    { name: PERMISSION_SERVER_NAME, version: deps.version },
    { capabilities: { tools: {} }, supportedProtocolVersions: SERVED_PROTOCOL_VERSIONS },
  );
  server.setRequestHandler('tools/list', () => ({ tools: [TOOL] }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    if (request.params.name !== PERMISSION_TOOL) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${request.params.name}: this server has only ${PERMISSION_TOOL}`);
    }
    let permission;
    try {
      permission = parsePromptToolInput(request.params.arguments ?? {});
    } catch (error) {
      if (error instanceof PermissionInputError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for ${PERMISSION_TOOL}: ${error.message}`);
      throw error;
    }
    const token = ctx.mcpReq._meta?.progressToken;
    const relay = new ProgressRelay(
      token === undefined ? undefined : (note) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...note } }).catch(() => undefined),
    );
    const stop = deps.store ? relay.whileAsking(deps.store, (source) => source.server === 'Claude Code' && source.tool === permission.toolName, deps.heartbeatMs) : undefined;
    try {
      const decision = await deps.ask(permission, ctx.mcpReq.signal, 'deny');
      return { content: [{ type: 'text' as const, text: promptToolText(permission, decision) }] };
    } finally {
      stop?.();
    }
  });
  return server;
}
