/**
 * The end of a task picked up again after a reload (MCP 2026-07-28), whose result no call
 * waits for: its result becomes a result document as Run Tool's do, and a notification
 * says the task finished, with Open Result. Nothing opens in the editor uninvited: the
 * person may be in the middle of something else when a task of an earlier window ends.
 */
import * as vscode from 'vscode';
import type { SettledTask } from '../../mcp/ports';
import { formatToolResult } from '../../mcp/result-format';
import { showInfo, showWarning } from '../notify';
import type { ResultDocuments } from './tool-runner';

const OPEN = 'Open Result';

export function showSettledTask(results: ResultDocuments, settled: SettledTask): void {
  const { task, result, error } = settled;
  if (!result) {
    void showWarning(`Task ${task.tool} on ${task.server} (picked up again after a reload) ended without a result: ${error ?? 'it ended'}`);
    return;
  }
  const uri = results.add(task.server, task.tool, formatToolResult(task.server, task.tool, undefined, result));
  const failed = result.isError === true;
  const say = failed ? showWarning : showInfo;
  void say(`Task ${task.tool} on ${task.server} finished${failed ? ', and the tool reported an error' : ''}.`, OPEN).then((choice) => {
    if (choice === OPEN) void vscode.window.showTextDocument(uri, { preview: false });
  });
}
