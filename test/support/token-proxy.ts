/**
 * Adds the gateway's token to every request of a client that cannot send one (MCP's
 * conformance suite has no header option), and changes nothing else: it listens on the
 * IPv6 loopback `[::1]` with the gateway's own port number and passes each request to the
 * gateway on 127.0.0.1 with the Host and Origin the client sent. A client that names
 * `http://[::1]:PORT` therefore reaches the gateway addressed to the gateway's own port,
 * as it would without the proxy, and the gateway's Host and Origin checks see what the
 * client sent. Bodies stream both ways; a client that goes away ends the gateway's request.
 */
import { createServer, request, type Server } from 'node:http';

export interface TokenProxy {
  /** `http://[::1]:PORT`: where the client sends what it meant for the gateway. */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startTokenProxy(gatewayPort: number, token: string): Promise<TokenProxy> {
  const server: Server = createServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: gatewayPort, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: Error & { code?: string }) =>
      reject(new Error(`the token proxy could not listen on [::1]:${gatewayPort} (${error.code ?? error.message}); these tests need the IPv6 loopback address ::1 (enable IPv6 on lo)`)),
    );
    server.listen(gatewayPort, '::1', () => resolve());
  });
  return {
    origin: `http://[::1]:${gatewayPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
