/**
 * The server half of the MCP SDK, as the gateway uses it. It is bundled into dist/mcp-sdk.js
 * beside the client half (sdk.ts's loadServer), so the two share one copy of zod, the SDK's
 * core and our ajv, and an agent's first call through the gateway loads the SDK once, not a
 * second copy in dist/gateway.js. The gateway runs it with its first MCP request
 * (serverSdk() in sdk-loader.ts), or before it, as VS Code resolves our server definition
 * to connect (Gateway.prepare); until then its code is bundled but not run.
 */
export { createMcpHandler, inputRequired, inputResponse, isInitializeRequest, isLegacyRequest, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
export { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
// The runner's `mcp-bridge`: a served server as a stdio one (src/cli/mcp-bridge-main.ts).
export { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
