/**
 * A tool as the views and the person see it: its name, title, schema and the two
 * annotations that change how we ask (destructive, read-only). The SDK's own `Tool`
 * objects travel unchanged beside it, for the gateway.
 */
import type { Tool } from '@modelcontextprotocol/client';

export interface ToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly destructive: boolean;
  readonly readOnly: boolean;
}

export function toToolInfo(tool: Tool): ToolInfo {
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.annotations?.title !== undefined && tool.title === undefined && { title: tool.annotations.title }),
    ...(tool.description !== undefined && { description: tool.description }),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    destructive: tool.annotations?.destructiveHint === true,
    readOnly: tool.annotations?.readOnlyHint === true,
  };
}
