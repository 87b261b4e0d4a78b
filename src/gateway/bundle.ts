/**
 * What the extension needs of the gateway, in one module: the build makes it a separate
 * file (dist/gateway.js) loaded when the gateway starts, so the MCP server SDK stays out of
 * the extension bundle that loads at activation.
 */
export { Gateway, type GatewayOptions, type ServedServer, type UpstreamSource } from './gateway';
export { AGENTS, type AgentId, type AgentSetup, agentSetup, type FileChange, type Snippet, TOKEN_VARIABLE, URL_VARIABLE } from './agent-setup';
export { outsideWorkspace } from './config-path';
