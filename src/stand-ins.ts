/**
 * What the activate call registers for the extension proper to fill in: activation
 * (src/extension.ts) makes them, the extension proper (src/extension-main.ts) takes them.
 * Apart from both so that neither imports the other for it; types only, so activation's
 * bundle gains nothing.
 */
import type * as vscode from 'vscode';
import type { RequestState } from './elicitation/store';
import type { HistoryEntry } from './elicitation/history';
import type { DeferredMcpProvider, DeferredTree, Later } from './ui/deferred';
import type { AgentsNode } from './ui/views/agents-view';
import type { ServersNode } from './ui/views/servers-view';

export interface StandIns {
  readonly servers: DeferredTree<ServersNode>;
  readonly agents: DeferredTree<AgentsNode>;
  readonly pending: DeferredTree<RequestState>;
  readonly pendingView: vscode.TreeView<RequestState>;
  readonly history: DeferredTree<HistoryEntry>;
  readonly mcp: DeferredMcpProvider<vscode.McpHttpServerDefinition>;
  /** The contributed commands' stand-ins: disposed just before the real ones are registered. */
  readonly commands: vscode.Disposable;
  /** Set once the real commands are registered: the stand-ins then run them. */
  readonly commandsReady: Later<void>;
}
