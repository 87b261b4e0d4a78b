/**
 * The room `src/ui/run-tool/`: Run Tool: this file (pick, collect, call, show the result),
 * `call-progress` (the call's progress, out of its own questions' way), `task-results`
 * (the result of a task picked up again after a reload, offered with Open Result) and
 * `sample-question` (Try a Sample Question: the prompts tried with no server).
 *
 * Run Tool: pick a server and a tool, collect its arguments (the same prompts an
 * elicitation gets, when the input schema is simple enough; a JSON editor otherwise),
 * call it with a cancellable progress notification, and show the result read-only.
 * This is how a person sets off a server's elicitations without any chat.
 */
import * as vscode from 'vscode';
import type { Broker } from '../../elicitation/broker';
import { InvalidSchemaError } from '../../elicitation/schema';
import type { ToolInfo } from '../../mcp/tool-info';
import type { ServerManager } from '../../mcp/servers/manager';
import { formatToolResult } from '../../mcp/result-format';
import { argumentSkeleton } from '../../mcp/tool-args';
import type { ResultSink } from '../../elicitation/history';
import { endedByThePerson } from '../../base/ended-by-person';
import { CallProgressView } from './call-progress';
import { showError, showInfo } from '../notify';
import { errorMessage } from '../../base/error-message';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { iconSafe } from '../text';
import type { TaskInfo, Timings } from '../../mcp/ports';

export const RESULT_SCHEME = 'elicitation-host-result';

/** Read-only documents holding tool results. */
export class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  /** Results are numbered per server and tool: the third echo is echo-3, whatever ran between. */
  private readonly counts = new Map<string, number>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  add(server: string, tool: string, text: string): vscode.Uri {
    const safe = (s: string): string => s.replace(/[^\w.-]+/g, '_').slice(0, 60);
    const base = `/${safe(server)}/${safe(tool)}`;
    const count = (this.counts.get(base) ?? 0) + 1;
    this.counts.set(base, count);
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `${base}-${count}.md` });
    this.contents.set(uri.toString(), text);
    return uri;
  }
}

export class ToolRunner {
  /** Tasks the person cancelled from the Servers view: their calls stopped as asked, not failed. */
  private readonly cancelledTasks = new Set<string>();

  constructor(
    private readonly manager: ServerManager,
    private readonly broker: Broker,
    private readonly results: ResultDocuments,
    private readonly quickInput: OwnQuickInput,
    /** Gives the questions the call asked its result (the history keeps it with them). */
    private readonly onResult?: ResultSink,
    /** Runs a call the person started: a sign-in (or more scope) it needs may ask to open the browser. */
    private readonly personStarted: <T>(server: string, run: () => Promise<T>) => Promise<T> = (_server, run) => run(),
    /** Timings for `npm run bench`: set only in the benchmark build. */
    private readonly timings?: Timings,
  ) {}

  /** The person cancelled this task (Cancel on its row): its call, if one of ours, says it stopped. */
  taskCancelled(task: TaskInfo): void {
    if (task.caller?.kind === 'person' && !task.resumed) this.cancelledTasks.add(`${task.server}\u0000${task.taskId}`);
  }

  async run(serverId?: string, toolName?: string): Promise<void> {
    const entryId = serverId ?? (await this.pickServer());
    if (!entryId) return;
    const entry = this.manager.find(entryId);
    if (!entry) return;
    let connection = entry.connection;
    try {
      if (connection?.state !== 'running') {
        connection = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Starting ${entry.definition.name}…` },
          () => this.manager.start(entry.id),
        );
      }
    } catch (error) {
      if (entry.connection?.signIn?.required) {
        offerSignIn(entry.id, `${entry.definition.name} needs you to sign in before its tools can run.`);
        return;
      }
      void showError(`${entry.definition.name} did not start: ${errorMessage(error)}`, 'Show Output').then((choice) => {
        if (choice) void vscode.commands.executeCommand('elicitationHost.showServerOutput', entry.id);
      });
      return;
    }
    const tool = toolName ? connection.tools.find((t) => t.name === toolName) : await this.pickTool(connection.tools, entry.definition.name);
    this.timings?.({ event: 'toolPicked', at: Date.now() });
    if (!tool) {
      if (toolName) void showError(`${entry.definition.name} has no tool "${toolName}".`);
      return;
    }
    const args = await this.collectArguments(entry.definition.name, tool);
    if (args === undefined) return;
    await this.call(entry.id, entry.definition.name, tool, args);
  }

  private async pickServer(): Promise<string | undefined> {
    const servers = this.manager.servers.filter((e) => !e.blocked);
    if (servers.length === 0) {
      void showInfo('No MCP server is configured (or all are waiting for workspace trust).');
      return undefined;
    }
    if (servers.length === 1) return servers[0].id;
    const chosen = await this.quickInput.pick(
      servers.map((e) => ({ label: iconSafe(e.definition.name, 120), description: e.connection?.state ?? 'stopped', id: e.id })),
      { title: 'Run Tool', placeHolder: 'Choose a server' },
    );
    return chosen?.id;
  }

  private async pickTool(tools: readonly ToolInfo[], server: string): Promise<ToolInfo | undefined> {
    if (tools.length === 0) {
      void showInfo(`${server} offers no tools.`);
      return undefined;
    }
    const chosen = await this.quickInput.pick(
      tools.map((tool) => ({
        label: iconSafe(tool.title ?? tool.name, 120),
        description: [tool.title ? iconSafe(tool.name, 80) : '', tool.destructive ? '$(warning) destructive' : ''].filter(Boolean).join(' '),
        detail: tool.description ? iconSafe(tool.description, 300) : undefined,
        tool,
      })),
      { title: `Run Tool: ${server}`, placeHolder: 'Choose a tool', matchOnDescription: true, matchOnDetail: true },
    );
    return chosen?.tool;
  }

  /** Asks for the arguments the tool's input schema describes; undefined when the person stops. */
  private async collectArguments(server: string, tool: ToolInfo): Promise<Record<string, unknown> | undefined> {
    const properties = tool.inputSchema.properties;
    if (!properties || Object.keys(properties).length === 0) return {};
    try {
      const result = await this.broker.elicit(
        { message: `Arguments for ${tool.title ?? tool.name}`, requestedSchema: tool.inputSchema },
        // The person's own question (it may take a modal, and a muted server does not silence it).
        { source: { server, tool: tool.title ?? tool.name, personStarted: true, ownQuestion: true }, signal: new AbortController().signal, applyDefaults: true },
      );
      return result.action === 'accept' ? (result.content ?? {}) : undefined;
    } catch (error) {
      if (!(error instanceof InvalidSchemaError)) throw error;
      return this.argumentsInEditor(tool);
    }
  }

  /** For schemas beyond what the prompts render: edit the arguments as JSON, prefilled from defaults. */
  private async argumentsInEditor(tool: ToolInfo): Promise<Record<string, unknown> | undefined> {
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(argumentSkeleton(tool.inputSchema), null, 2) });
    await vscode.window.showTextDocument(document, { preview: false });
    for (;;) {
      const choice = await showInfo(`Edit the arguments for ${tool.name} as JSON, then choose Run.`, 'Run', 'Cancel');
      if (choice !== 'Run') return undefined;
      try {
        const value: unknown = JSON.parse(document.getText());
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
        void showError('The arguments must be a JSON object.');
      } catch (error) {
        void showError(`The arguments are not valid JSON: ${errorMessage(error)}`);
      }
    }
  }

  private async call(id: string, server: string, tool: ToolInfo, args: Record<string, unknown>): Promise<void> {
    const name = tool.title ?? tool.name;
    const cancel = new AbortController();
    const startedAt = Date.now();
    // Out of the way of the call's own questions (see call-progress.ts).
    const progress = new CallProgressView(`${name} on ${server}`, () => cancel.abort(endedByThePerson(`You stopped ${name}`)));
    // A task-backed call: said at once (its status messages follow), and how it ended.
    let task: TaskInfo | undefined;
    const onTask = (seen: TaskInfo): void => {
      if (!task && seen.statusMessage === undefined) progress.report({ message: `running as a task (under ${server} in the Servers view)` });
      task = seen;
    };
    try {
      this.timings?.({ event: 'toolCallStarting', at: Date.now() });
      const result = await this.personStarted(server, () =>
        this.manager.callTool(id, tool.name, args, { caller: { kind: 'person' }, signal: cancel.signal, onProgress: (p) => progress.report(p), onTask }),
      ).finally(() => progress.dispose());
      const text = formatToolResult(server, tool.name, args, result as unknown as Record<string, unknown>);
      this.onResult?.({ server, tool: name, since: startedAt }, text);
      const uri = this.results.add(server, tool.name, text);
      await vscode.window.showTextDocument(uri, { preview: false });
    } catch (error) {
      // Stopped by the person (the notification's Cancel): no error for what they asked for.
      if (cancel.signal.aborted) void showInfo(`${name} on ${server} stopped.`);
      // Cancelled from the Servers view: what the person asked for, not a failure.
      else if (task && this.cancelledTasks.has(`${task.server}\u0000${task.taskId}`)) void showInfo(`${name} on ${server} stopped: you cancelled its task.`);
      else if (this.manager.find(id)?.connection?.signIn?.required) offerSignIn(id, `${name} on ${server} failed: ${server} needs you to sign in again.`);
      else void showError(`${name} on ${server} failed: ${errorMessage(error)}`);
    } finally {
      if (task) this.cancelledTasks.delete(`${task.server}\u0000${task.taskId}`);
    }
  }
}

/** A server that needs a sign-in: the error says so, with Sign In (which asks before any browser opens). */
function offerSignIn(serverId: string, text: string): void {
  void showError(text, 'Sign In').then((choice) => {
    if (choice) void vscode.commands.executeCommand('elicitationHost.signIn', serverId);
  });
}
