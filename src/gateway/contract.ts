/**
 * What the gateway and its callers agree on, on the wire, in one place: the variables a
 * VS Code terminal is given to find the window's gateway, the gateway's paths, and the body
 * `POST /ask` takes. The gateway serves these (gateway.ts, outside-question.ts); the runner
 * (`ask`, `acp-proxy`, `serve`), the extension's terminals and Connect an Agent… use them.
 * Constants and types only, so each side imports it without the other's code. Pure.
 *
 *   /mcp/<server>                           an upstream server (its configured name, made URL-safe)
 *   /elicitation-host/mcp                   the built-in server (--permission-prompt-tool)
 *   /hooks/claude-code/permission-request   Claude Code's PermissionRequest hook
 *   /ask                                    a question from a terminal (`elicitation-host ask`, `acp-proxy`)
 */
import type { FormParams, UrlParams } from '../elicitation/broker';

/** The token every request carries, and the window's gateway address: set in its terminals and extension host, never in a program we start. */
export { TOKEN_VARIABLE, URL_VARIABLE } from '../base/child-environment';

export const MCP_PREFIX = '/mcp/';
/** Our built-in server's name: its path, and the name agents' MCP configurations give it. */
export const PERMISSION_SERVER_NAME = 'elicitation-host';
export const PERMISSION_TOOL = 'permission_prompt';
/** What `claude -p --permission-prompt-tool` is given, with the server under this name in its MCP config. */
export const PERMISSION_TOOL_FOR_CLAUDE = `mcp__${PERMISSION_SERVER_NAME}__${PERMISSION_TOOL}`;
export const PERMISSION_SERVER_PATH = `/${PERMISSION_SERVER_NAME}/mcp`;
export const PERMISSION_HOOK_PATH = '/hooks/claude-code/permission-request';

export const ASK_PATH = '/ask';
/** The largest `/ask` body: a schema at its limit (64 K characters), a message at its limit, and room for JSON escapes. */
export const ASK_MAX_BODY_BYTES = 256 * 1024;

/** What `/ask` takes, as the runner sends it (outside-question.ts reads it, naming the field at fault). */
export interface AskBody {
  readonly from: string;
  readonly agent?: boolean;
  readonly tool?: string;
  readonly session?: string;
  readonly destructive?: boolean;
  readonly question: FormParams | UrlParams;
}
