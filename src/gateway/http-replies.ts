/**
 * The gateway's own HTTP answers (refusals, errors, JSON bodies) and the bounded body
 * reader. No CORS header is ever sent: nothing here is meant for a browser.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The largest request body read; the SDK's own default bound. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

export function writeJson(res: ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/** A refusal in JSON-RPC form, which MCP clients show as the error's message. */
export function writeJsonRpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  writeJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Reads the whole body, refusing more than `limit` bytes. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.byteLength;
    if (size > limit) throw new BodyTooLargeError(`the request body is over the limit of ${limit} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
