/** One log output channel per server: its stderr, our notes, and at trace level the JSON-RPC traffic. */
import * as vscode from 'vscode';
import type { ServerLog } from '../../mcp/ports';

export class ServerLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  private channel(name: string): vscode.LogOutputChannel {
    let channel = this.channels.get(name);
    if (!channel) {
      channel = vscode.window.createOutputChannel(`MCP: ${name}`, { log: true });
      this.channels.set(name, channel);
    }
    return channel;
  }

  logFor(name: string): ServerLog {
    const channel = (): vscode.LogOutputChannel => this.channel(name);
    return {
      info: (m) => channel().info(m),
      warn: (m) => channel().warn(m),
      error: (m) => channel().error(m),
      trace: (m) => channel().trace(m),
      stderr: (line) => channel().info(`[stderr] ${line}`),
      get traceEnabled() {
        return channel().logLevel === vscode.LogLevel.Trace;
      },
    };
  }

  show(name: string): void {
    this.channel(name).show(true);
  }

  dispose(): void {
    this.channels.forEach((c) => c.dispose());
    this.channels.clear();
  }
}
