/**
 * Calls a configured server's tool as a terminal agent does: through our gateway, with its
 * token, over MCP's streamable HTTP (plain fetch: nothing to bundle). The suite uses it where
 * it once used the API's callTool, which now needs the person's consent, and VS Code refuses
 * every dialog while extension tests run.
 */
interface Message {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string };
}

/** The JSON-RPC answer with this id, from a JSON body or a stream of server-sent events. */
function answerOf(body: string, id: number): Message {
  const messages = body.trimStart().startsWith('{')
    ? [JSON.parse(body) as Message]
    : body.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)) as Message);
  const found = messages.find((m) => m.id === id);
  if (!found) throw new Error(`the gateway did not answer request ${id}: ${body.slice(0, 300)}`);
  if (found.error) throw new Error(found.error.message);
  return found;
}

export async function callThroughGateway(pathSegment: string, tool: string, args: Record<string, unknown>): Promise<{ content: Array<{ text: string }> }> {
  const base = process.env.ELICITATION_HOST_MCP_URL;
  const token = process.env.ELICITATION_HOST_MCP_TOKEN;
  if (!base || !token) throw new Error('the gateway is not listening (ELICITATION_HOST_MCP_URL and _TOKEN are not set)');
  const url = `${base}/mcp/${pathSegment}`;
  let session: string | undefined;
  const send = async (message: Record<string, unknown>, method = 'POST'): Promise<string> => {
    const response = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, ...(session && { 'mcp-session-id': session }) },
      ...(method === 'POST' && { body: JSON.stringify({ jsonrpc: '2.0', ...message }) }),
    });
    session ??= response.headers.get('mcp-session-id') ?? undefined;
    const body = await response.text();
    if (!response.ok) throw new Error(`the gateway answered ${response.status}: ${body.slice(0, 300)}`);
    return body;
  };
  answerOf(await send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'suite', version: '1' } } }), 1);
  await send({ method: 'notifications/initialized' });
  try {
    return answerOf(await send({ id: 2, method: 'tools/call', params: { name: tool, arguments: args } }), 2).result as { content: Array<{ text: string }> };
  } finally {
    await send({}, 'DELETE').catch(() => undefined);
  }
}
