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
  /** MCP 2025-11-25 `execution.taskSupport`: whether a call may (or must) run as a task. */
  readonly taskSupport?: 'required' | 'optional' | 'forbidden';
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
    ...(taskSupportOf(tool) && { taskSupport: taskSupportOf(tool) }),
  };
}

function taskSupportOf(tool: Tool): ToolInfo['taskSupport'] {
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return support === 'required' || support === 'optional' || support === 'forbidden' ? support : undefined;
}
