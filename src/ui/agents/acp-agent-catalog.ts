/**
 * The agents Add Agent… offers, each with the command its own documentation or package gives
 * for speaking ACP over stdio (checked against each, November 2026):
 * - Claude Code: the adapter `@agentclientprotocol/claude-agent-acp` (npm, bin `claude-agent-acp`);
 *   it needs `ANTHROPIC_API_KEY` or a Claude login.
 * - Codex: the adapter `@agentclientprotocol/codex-acp` (npm, bin `codex-acp`).
 * - Gemini CLI: `gemini --acp` (its CLI reference; `--experimental-acp` is the old spelling).
 * - GitHub Copilot CLI: `copilot --acp --stdio` (GitHub's "Copilot CLI ACP server" reference).
 * - opencode: `opencode acp` (opencode's ACP page).
 * - Qwen Code: `qwen --acp` (its CLI's options; `--experimental-acp` is deprecated there).
 * The adapters run through `npx -y`, so nothing need be installed first; the CLIs must be on
 * PATH. Pure.
 *
 * Not the agents Connect an Agent… points at the gateway: those are src/gateway/gateway-recipes.ts.
 */

export interface AcpCatalogAgent {
  /** The name the setting gets (who asks, in every prompt). */
  readonly name: string;
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  /** What the person needs first, said in the pick. */
  readonly needs: string;
  /** The mode a new session starts in when the person wants to be asked, where the agent's default does not ask. */
  readonly askingMode?: string;
}

export const ACP_AGENT_CATALOG: readonly AcpCatalogAgent[] = [
  {
    name: 'claude',
    label: 'Claude Code',
    command: 'npx',
    args: ['-y', '@agentclientprotocol/claude-agent-acp'],
    needs: 'Node.js; a Claude login or ANTHROPIC_API_KEY',
    askingMode: 'default',
  },
  { name: 'codex', label: 'Codex', command: 'npx', args: ['-y', '@agentclientprotocol/codex-acp'], needs: 'Node.js; a ChatGPT login or OPENAI_API_KEY' },
  { name: 'gemini', label: 'Gemini CLI', command: 'gemini', args: ['--acp'], needs: 'gemini on PATH (npm i -g @google/gemini-cli)' },
  { name: 'copilot', label: 'GitHub Copilot CLI', command: 'copilot', args: ['--acp', '--stdio'], needs: 'copilot on PATH (npm i -g @github/copilot), signed in' },
  { name: 'opencode', label: 'opencode', command: 'opencode', args: ['acp'], needs: 'opencode on PATH (npm i -g opencode-ai)' },
  { name: 'qwen', label: 'Qwen Code', command: 'qwen', args: ['--acp'], needs: 'qwen on PATH (npm i -g @qwen-code/qwen-code)' },
];
