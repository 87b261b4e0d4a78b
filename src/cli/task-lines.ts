/**
 * The runner's lines for a tool call that runs as a task (MCP Tasks): one per change of
 * its status or status message, for people ("… task T of tool: working: Gathering
 * sources...") and as JSON (`{"type":"task", ...}`) beside the call's other lines.
 */
import type { TaskInfo } from '../mcp/ports';
import type { Output } from './output';

export function taskLines(out: Output): (task: TaskInfo) => void {
  let last = '';
  return (task) => {
    const seen = JSON.stringify([task.taskId, task.status, task.statusMessage]);
    if (seen === last) return;
    last = seen;
    out.line(`… task ${task.taskId} of ${task.tool}: ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`, {
      type: 'task',
      tool: task.tool,
      taskId: task.taskId,
      generation: task.generation,
      status: task.status,
      statusMessage: task.statusMessage ?? null,
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
    });
  };
}
