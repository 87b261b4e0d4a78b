/**
 * The environment a program we start gets: this process's, without the window's gateway
 * address and token. The extension host carries both (for extensions such as Roo and
 * Continue that read them there), and a runner started in a VS Code terminal inherits them;
 * an agent, a server, a browser or a bridge we start must not: it would reach every server
 * of the person's, `/ask` and the hooks, whatever the session was given, and after it ended.
 * A session's own entries (its MCP servers' headers and variables) carry its own token.
 */

/** The window's gateway token (`Authorization: Bearer`), in its terminals and extension host. */
export const TOKEN_VARIABLE = 'ELICITATION_HOST_MCP_TOKEN';
/** The window's gateway (`http://127.0.0.1:<port>`), in its terminals and extension host. */
export const URL_VARIABLE = 'ELICITATION_HOST_MCP_URL';

/** Our variables, never inherited by a program we start. */
export const GATEWAY_VARIABLES: readonly string[] = [TOKEN_VARIABLE, URL_VARIABLE];

/**
 * A copy of `env` for a child process: unset values dropped, and our variables left out
 * whatever their case (Windows reads names without it).
 */
export function childEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const ours = new Set(GATEWAY_VARIABLES.map((name) => name.toUpperCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !ours.has(name.toUpperCase())) out[name] = value;
  return out;
}
