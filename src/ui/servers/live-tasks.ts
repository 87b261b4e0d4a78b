/**
 * The running MCP tasks of every server, for the views: follows each connection's task list
 * as connections come and go (a start, a restart and a reload each make a new one), tells
 * of every change, and passes on the end of a task picked up again after a reload, whose
 * result no call is waiting for.
 */
import type * as vscode from 'vscode';
import type { ServerConnection } from '../../mcp/connection/connection';
import { Listeners } from '../../base/listeners';
import type { SettledTask, TaskInfo } from '../../mcp/ports';
import type { ServerManager } from '../../mcp/servers/manager';

export class LiveTasks implements vscode.Disposable {
  readonly onDidChange = new Listeners<void>();
  readonly onSettled = new Listeners<SettledTask>();
  private readonly followed = new Map<ServerConnection, () => void>();
  private readonly stopFollowingManager: () => void;

  constructor(private readonly manager: ServerManager) {
    this.stopFollowingManager = manager.onDidChange.add(() => this.follow());
    this.follow();
  }

  /** Every live task, of every server. */
  all(): readonly TaskInfo[] {
    return [...this.followed.keys()].flatMap((connection) => connection.tasks.list());
  }

  private follow(): void {
    const current = new Set(this.manager.servers.map((e) => e.connection).filter((c): c is ServerConnection => c !== undefined));
    let changed = false;
    for (const [connection, stop] of this.followed) {
      if (current.has(connection)) continue;
      stop();
      this.followed.delete(connection);
      changed = true;
    }
    for (const connection of current) {
      if (this.followed.has(connection)) continue;
      const stops = [connection.tasks.onDidChange.add(() => this.onDidChange.fire()), connection.tasks.onSettled.add((settled) => this.onSettled.fire(settled))];
      this.followed.set(connection, () => stops.forEach((stop) => stop()));
      changed ||= connection.tasks.size > 0;
    }
    if (changed) this.onDidChange.fire();
  }

  dispose(): void {
    this.stopFollowingManager();
    for (const stop of this.followed.values()) stop();
    this.followed.clear();
  }
}
