/**
 * What the extension needs of the gateway, in one module: the build makes it a separate
 * file (dist/gateway.js) loaded when the gateway starts. It carries no SDK of its own: the
 * SDK's server half comes from dist/mcp-sdk.js, the bundle the servers' connections load,
 * with the gateway's first MCP request (src/mcp/sdk/server-sdk.ts).
 */
export { Gateway, type GatewayOptions, type ServedServer, type UpstreamSource } from './gateway';
export { GATEWAY_RECIPES, type GatewayRecipeId, type PreparedRecipe, prepareRecipe } from './gateway-recipes';
export type { FileChange, Snippet } from './recipe-merge';
export { TOKEN_VARIABLE, URL_VARIABLE } from './contract';
export { outsideWorkspace } from './config-path';
export { sessionServers } from './session-servers';
