/**
 * One WebSocket to an agent host, speaking JSON-RPC 2.0 (one message per text frame): our
 * requests with a timeout each, our notifications, the host's notifications handed on, and
 * the host's own requests answered MethodNotFound (we serve none of its files or prompts).
 * A frame over AHP_LIMITS.frameBytes closes the socket (the `ws` package's maxPayload); a
 * frame that is not JSON, not JSON-RPC, or that a handler refuses is logged and dropped: the
 * socket stays up and nothing is thrown into the caller.
 */
import WebSocket from 'ws';
import { AhpError, refusedRequest, tokenRefused, unreachable } from './errors';
import type { AhpLog } from './ports';
import { WireError } from './wire/check';
import { AHP_LIMITS, ERROR_CODES } from './wire/names';
import { isRecord } from '../base/is-record';
import type { CreateConnection } from './loopback-connection';

export interface RpcHandlers {
  /** A notification from the host; a WireError it throws is logged and the message dropped. */
  notification(method: string, params: unknown): void;
  /** The socket closed (not by `close()`): `error` says why when there was one. */
  closed(error?: AhpError): void;
}

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
  readonly method: string;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export class RpcSocket {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closing = false;

  private constructor(
    private readonly ws: WebSocket,
    /** The host as shown: its address without the token. */
    readonly host: string,
    private readonly handlers: RpcHandlers,
    private readonly log: AhpLog,
  ) {
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('close', (code) => this.ended(code));
    ws.on('error', (error) => this.log.warn(`agent host ${host}: ${error.message}`));
  }

  /**
   * Opens the socket: resolves once open, rejects with the failure classified (403: the
   * token). `createConnection`: how the TCP connection is made (a ws:// one: loopback only).
   */
  static open(address: string, host: string, handlers: RpcHandlers, log: AhpLog, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS, createConnection?: CreateConnection): Promise<RpcSocket> {
    return new Promise((resolve, reject) => {
      let ws: WebSocket;
      try {
        ws = new WebSocket(address, {
          maxPayload: AHP_LIMITS.frameBytes,
          handshakeTimeout: timeoutMs,
          followRedirects: false,
          perMessageDeflate: false,
          ...(createConnection && { createConnection: createConnection as unknown as WebSocket.ClientOptions['createConnection'] }),
        });
      } catch (error) {
        reject(unreachable(host, (error as Error).message));
        return;
      }
      const fail = (error: AhpError): void => {
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
        reject(error);
      };
      ws.once('unexpected-response', (_request, response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        fail(status === 401 || status === 403 ? tokenRefused(host, status) : unreachable(host, `it answered HTTP ${status} instead of opening a WebSocket`));
      });
      ws.once('error', (error: NodeJS.ErrnoException) => fail(unreachable(host, error.code ? `${error.code} (${error.message})` : error.message)));
      ws.once('open', () => {
        ws.removeAllListeners();
        resolve(new RpcSocket(ws, host, handlers, log));
      });
    });
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  request(method: string, params: unknown, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<unknown> {
    if (!this.open) return Promise.reject(new AhpError('closed', `the connection to the agent host at ${this.host} is closed`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AhpError('timeout', `the agent host at ${this.host} did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, method });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** False when the socket is not open (nothing was sent). */
  notify(method: string, params: unknown): boolean {
    if (!this.open) return false;
    this.send({ jsonrpc: '2.0', method, params });
    return true;
  }

  /** Closes the socket; pending requests fail; `closed` is not called. */
  close(): void {
    this.closing = true;
    this.failPending(new AhpError('closed', `the connection to the agent host at ${this.host} was closed`));
    this.ws.close(1000);
    // A host that does not answer the close frame is not waited for.
    setTimeout(() => this.ws.terminate(), 2_000).unref();
  }

  /** Drops the socket at once (a host that stopped answering pings); `closed` is called. */
  drop(why: string): void {
    this.log.warn(`agent host ${this.host}: ${why}; reconnecting`);
    this.ws.terminate();
  }

  private send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  private ended(code: number): void {
    this.failPending(new AhpError('closed', `the connection to the agent host at ${this.host} closed`));
    if (this.closing) return;
    const why = code === 1009 ? `it sent a message over the limit of ${AHP_LIMITS.frameBytes.toLocaleString('en-US')} bytes (AHP_LIMITS.frameBytes)` : `the connection closed (code ${code})`;
    this.handlers.closed(unreachable(this.host, why));
  }

  private failPending(error: AhpError): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(error);
      this.pending.delete(id);
    }
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) return this.dropped('a binary frame');
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return this.dropped('a frame that is not JSON');
    }
    if (!isRecord(message)) return this.dropped('a message that is not a JSON-RPC object');
    const { id, method } = message;
    if (typeof method === 'string') {
      if (id !== undefined && id !== null) {
        // A request of the host's own (files, trust...): we serve none.
        if (typeof id === 'string' || typeof id === 'number') this.send({ jsonrpc: '2.0', id, error: { code: ERROR_CODES.methodNotFound, message: `Method not found: ${method.slice(0, 100)}` } });
        return;
      }
      try {
        this.handlers.notification(method, message.params);
      } catch (error) {
        this.dropped(`a ${method.slice(0, 100)} message: ${error instanceof WireError ? error.message : String(error)}`);
      }
      return;
    }
    if (typeof id !== 'number') return this.dropped('a response to no request of ours');
    const pending = this.pending.get(id);
    if (!pending) return this.dropped(`a response to request ${id}, which is not waiting`);
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (isRecord(message.error)) {
      const { code, message: text, data } = message.error;
      pending.reject(refusedRequest(typeof code === 'number' ? code : 0, typeof text === 'string' ? text.slice(0, 2_000) : `${pending.method} failed`, data));
    } else {
      pending.resolve(message.result);
    }
  }

  private dropped(what: string): void {
    this.log.warn(`agent host ${this.host}: dropped ${what}`);
  }
}
