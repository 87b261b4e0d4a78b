/**
 * How the gateway serves tools an upstream runs as MCP Tasks: as plain tools, to every
 * agent. We run the task upstream ourselves, ask its questions here, and answer the
 * agent's `tools/call` with the task's final result; so a tool's
 * `execution.taskSupport` is not passed on, and the gateway declares no `tasks`.
 *
 * Why not hand a task-aware agent (VS Code's client) the task handle: the agent would then
 * poll the task and answer its `input_required` questions itself, in its own prompts, or
 * not at all, which is what the gateway exists to replace; our bounds (poll interval,
 * total wait, live tasks, time to live of questions) and Pending Inputs would not apply;
 * and a handle names a task of the upstream's session, which the agent could only reach
 * through a second task layer of ours. What it costs: the agent's call stays open for the
 * task's duration; the gateway's progress heartbeat keeps a client that resets its
 * timeout on progress waiting, as it does for any question.
 */
import type { Tool } from '@modelcontextprotocol/client';

/** The tool as the agent sees it: without `execution.taskSupport` (kept: whatever else `execution` says). */
export function asPlainTool(tool: Tool): Tool {
  const execution = (tool as { execution?: Record<string, unknown> }).execution;
  if (!execution || !('taskSupport' in execution)) return tool;
  const { taskSupport: _ours, ...rest } = execution;
  const { execution: _execution, ...plain } = tool as Tool & { execution?: unknown };
  return (Object.keys(rest).length > 0 ? { ...plain, execution: rest } : plain) as Tool;
}
