/**
 * A `ws://` connection reaches this machine only. Its upgrade request carries the host's
 * token in clear (the `tkn` parameter), so a name that counts as this machine (`localhost`,
 * `*.localhost`) must not be taken on its word: DNS, or an /etc/hosts line, can answer any
 * address. The connection is made through a lookup that keeps only loopback answers
 * (127.0.0.0/8, ::1) and fails when none is left, and the socket is handed to the WebSocket,
 * which writes the upgrade, only once the address it actually connected to is a loopback one:
 * before that, nothing at all is sent. Used as the `ws` package's `createConnection` (Node's
 * HTTP client waits for its callback).
 */
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { BlockList, connect, isIP, type LookupFunction, type Socket } from 'node:net';

/** Node's HTTP client's `createConnection`, in the form that hands the socket over later. */
export type CreateConnection = (options: { readonly host?: string; readonly port?: number | string; readonly timeout?: number }, done: (error: Error | null, socket?: Socket) => void) => undefined;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** A loopback address: 127.0.0.0/8 (mapped into IPv6 too: the list checks those as IPv4) or ::1, in any of its spellings. */
export function isLoopbackAddress(address: string | undefined): boolean {
  const family = address === undefined ? 0 : isIP(address);
  return family !== 0 && LOOPBACK.check(address!, family === 6 ? 'ipv6' : 'ipv4');
}

export class NotThisMachine extends Error {}

/** A lookup whose answers are `resolve`'s loopback ones; none: an error naming what it answered. */
export function loopbackLookup(resolve: LookupFunction = systemLookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, answers) => {
      if (error) return callback(error, '', 4);
      const all = (Array.isArray(answers) ? answers : [{ address: answers, family: isIP(answers) }]) as LookupAddress[];
      const kept = all.filter((a) => isLoopbackAddress(a.address));
      if (kept.length === 0) {
        const said = all.map((a) => a.address).join(', ') || 'nothing';
        return callback(new NotThisMachine(`${hostname} resolves to ${said}, not to this machine: ws:// is unencrypted and goes only to a loopback address (127.0.0.1, ::1); use wss:// for another machine`), '', 4);
      }
      if (options.all) return callback(null, kept as unknown as string, 0);
      callback(null, kept[0].address, kept[0].family);
    });
  };
}

/**
 * Connects with `lookup`, and hands the socket over only once its peer is a loopback address
 * (else it is closed and an error names the address). `loopbackConnection` is the one to use;
 * this one alone is for a test of a lookup that answers past the filter.
 */
export function connectChecked(lookup: LookupFunction): CreateConnection {
  return (options, done) => {
    const host = options.host ?? 'localhost';
    const socket = connect({ host, port: Number(options.port), lookup });
    const fail = (error: Error): void => {
      socket.destroy();
      done(error);
    };
    socket.once('error', fail);
    // Until the socket is handed over, the HTTP client's own timeout does not run.
    if (options.timeout) socket.setTimeout(options.timeout, () => fail(new Error(`no connection to ${host} within ${Math.round(options.timeout! / 1000)} s`)));
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.removeListener('error', fail);
      if (!isLoopbackAddress(socket.remoteAddress)) {
        socket.destroy();
        done(new NotThisMachine(`${host} connected to ${socket.remoteAddress ?? 'an unknown address'}, not to this machine: ws:// is unencrypted and goes only to a loopback address (127.0.0.1, ::1); nothing was sent`));
        return;
      }
      done(null, socket);
    });
    return undefined;
  };
}

/** The `createConnection` of a `ws://` connection: loopback answers only, and the connected address checked. */
export function loopbackConnection(resolve?: LookupFunction): CreateConnection {
  return connectChecked(loopbackLookup(resolve));
}
