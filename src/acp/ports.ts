/**
 * What a host (the VS Code UI, the runner, the tests) hands `src/acp`, and what it is told:
 * the agent to run, where its questions go (the broker), how files are read and written
 * (VS Code: an open editor's unsaved text, an undoable edit; the runner: the disk), and
 * whether the workspace is trusted. No logic here.
 */
import type { McpServer, RequestPermissionOutcome, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { Broker } from '../elicitation/broker';
import type { FileTarget, LineWindow } from './file-access';

/** An agent the person configured (`elicitationHost.agents`: name → command, args, env). */
export interface AgentDefinition {
  /** The configured name: shown as who asks (we vouch for it; the agent's own `agentInfo` is only what it says). */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Over the host's environment; `null` removes a variable. */
  readonly env?: Readonly<Record<string, string | null>>;
  /** Where the process runs (default: the first session's directory is not known yet, so the host's). */
  readonly cwd?: string;
}

/**
 * How an agent's `fs/read_text_file` and `fs/write_text_file` reach files. The target has
 * passed the session's access rules (file-access.ts, and the workspace is trusted) before
 * either runs; the disk is read and written through folder-files.ts, which follows no link
 * made since the check.
 */
export interface AgentFiles {
  /** The file's text, or the lines of `window`: in VS Code an open editor's unsaved text wins over the disk. */
  read(target: FileTarget, window?: LineWindow): Promise<string>;
  /** Writes the whole text: in VS Code shown in an editor, where Undo takes it back. */
  write(target: FileTarget, content: string): Promise<void>;
}

export interface AgentLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A line the agent wrote to stderr. */
  stderr(line: string): void;
}

export interface AgentSettings {
  /** Offer URL-mode questions (`elicitationHost.url.enabled`); off advertises form mode only. */
  readonly urlMode: boolean;
  /** Fill fields left empty with their defaults when the person accepts. */
  readonly applyDefaults: boolean;
  /** A question is withdrawn after this long unanswered. 0: never. */
  readonly elicitationTimeoutMs: number;
}

/** An MCP server given to an agent's session, as the person is shown it. */
export interface GivenServer {
  /** The name the agent knows it by. */
  readonly name: string;
  /** `http`: the gateway's address with a token in a header; `stdio`: our bridge to it, the token in its environment. */
  readonly transport: 'http' | 'stdio';
}

/** The person's MCP servers, readied for one new session. */
export interface SharedServers {
  /** `session/new`'s `mcpServers`. */
  readonly entries: readonly McpServer[];
  readonly given: readonly GivenServer[];
  /** Why nothing is given, when nothing is (sharing is off, no server is served). */
  readonly note?: string;
  /** The session ended (or never began): its token stops working. */
  revoke(): void;
}

export interface ShareRequest {
  /** The configured agent's name: its servers' questions are headed with it. */
  readonly agent: string;
  /** The agent takes HTTP servers (`mcpCapabilities.http`); otherwise stdio ones only. */
  readonly http: boolean;
  /** The session's title when a question comes (undefined until the session exists). */
  session(): string | undefined;
}

export interface AgentClientPorts {
  readonly broker: Broker;
  readonly files: AgentFiles;
  /**
   * The workspace is trusted. Read at every file request: no file is read or written while
   * it is false (the host also starts no workspace-defined agent command until it is trusted).
   */
  isTrusted(): boolean;
  readonly log: AgentLog;
  settings(): AgentSettings;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /**
   * Decides a permission without asking anyone (the runner's `--permissions`); undefined
   * for one it has no rule for, which is asked. Without it every permission is asked.
   */
  readonly permissionPolicy?: (request: RequestPermissionRequest) => RequestPermissionOutcome | undefined;
  /** The environment agents start from (default: this process's). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * The person's MCP servers for a new session (VS Code: the gateway's, each session with a
   * token of its own); without it a session gets none.
   */
  readonly shareServers?: (request: ShareRequest) => Promise<SharedServers>;
}
