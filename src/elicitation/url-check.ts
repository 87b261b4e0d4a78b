/**
 * What the person must know about a link before opening it: the scheme and host, the host
 * in Unicode and in Punycode, and the tricks a link can play (plain http, a bare IP
 * address, a host on this computer or a private network, a user name before the host,
 * look-alike characters). Links that are not web pages (javascript:, data:, file:,
 * vscode:, command:...) or do not parse are refused.
 */
import { toUnicode } from 'punycode/';

/** Longer than this cannot be reviewed by a person: refused. */
export const MAX_URL_LENGTH = 8192;

export type UrlCheck =
  | { readonly ok: false; readonly reason: string }
  | {
      readonly ok: true;
      readonly url: string;
      readonly scheme: 'https' | 'http';
      /** The host as it reads in Unicode (a look-alike reads as the site it imitates: show `asciiHost` first when set). */
      readonly host: string;
      /** The host as the browser will use it (ASCII, Punycode), when it differs. */
      readonly asciiHost?: string;
      readonly port?: string;
      readonly warnings: readonly string[];
    };

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Where a host name or address leads, when that is not the internet at large. */
type Nearby = 'this-computer' | 'private-network';

/**
 * `localhost` and loopback addresses are this computer; private, link-local and shared
 * address ranges (RFC 1918, 6598, 3927, 4193, 4291) are a device on a nearby network.
 * The URL parser has already normalised the host (`0x7f.1` is 127.0.0.1 by now).
 */
function nearby(host: string): Nearby | undefined {
  if (host === 'localhost' || host.endsWith('.localhost')) return 'this-computer';
  const v4 = IPV4.exec(host);
  if (v4) return nearbyV4(v4.slice(1, 5).map(Number));
  if (!host.startsWith('[')) return undefined;
  const v6 = host.slice(1, -1).toLowerCase();
  if (v6 === '::1' || v6 === '::') return 'this-computer';
  // An IPv4 address in IPv6 clothing (::ffff:7f00:1 is 127.0.0.1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    return nearbyV4([high >> 8, high & 255, low >> 8, low & 255]);
  }
  if (/^f[cd][0-9a-f]{0,2}:/.test(v6) || /^fe[89ab][0-9a-f]?:/.test(v6)) return 'private-network';
  return undefined;
}

function nearbyV4([a, b]: number[]): Nearby | undefined {
  if (a === 127 || a === 0) return 'this-computer';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127)) {
    return 'private-network';
  }
  return undefined;
}

function hostWarning(host: string, where: Nearby | undefined): string | undefined {
  const address = IPV4.test(host) || host.startsWith('[');
  if (where === 'this-computer') {
    return address
      ? `The host is a bare IP address (${host}): a program on this computer, not a site you can recognise by name.`
      : `The host is ${host}: a program on this computer, not a site you can recognise by name.`;
  }
  if (where === 'private-network') {
    return `The host is a bare IP address (${host}) on a private network: a device near you, not a site you can recognise by name.`;
  }
  return address ? `The host is a bare IP address (${host}), not a name you can recognise.` : undefined;
}

export function checkUrl(raw: string): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `the link is ${raw.length} characters long, too long to review (at most ${MAX_URL_LENGTH})` };
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, reason: 'the link is not a valid URL' };
  }
  const scheme = parsed.protocol.slice(0, -1).toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') {
    return { ok: false, reason: `links with the scheme "${scheme}:" are not opened, only https and http` };
  }
  const asciiHost = parsed.hostname;
  if (asciiHost === '') return { ok: false, reason: 'the link has no host' };
  const unicodeHost = asciiHost
    .split('.')
    .map((label) => (label.startsWith('xn--') ? safeToUnicode(label) : label))
    .join('.');
  const where = nearby(asciiHost);
  const warnings: string[] = [];
  // Plain http to this computer never crosses a network; to anywhere else it does.
  if (scheme === 'http' && where !== 'this-computer') {
    warnings.push('The link uses plain http: the page and what you send to it are not encrypted.');
  }
  const hostNote = hostWarning(asciiHost, where);
  if (hostNote) warnings.push(hostNote);
  if (parsed.username !== '' || parsed.password !== '') {
    const shown = safeDecode(parsed.username);
    warnings.push(`The link puts "${shown}" before an @ sign: that is a user name, not the site. The site is ${asciiHost}.`);
  }
  if (unicodeHost !== asciiHost) {
    warnings.push(`The host has non-ASCII characters that can imitate other letters (it reads as ${unicodeHost}); the browser goes to ${asciiHost}.`);
  }
  return {
    ok: true,
    url: parsed.href,
    scheme,
    host: unicodeHost,
    ...(unicodeHost !== asciiHost && { asciiHost }),
    ...(parsed.port !== '' && { port: parsed.port }),
    warnings,
  };
}

/** A user name as the person would read it; left escaped where it does not decode. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function safeToUnicode(label: string): string {
  try {
    return toUnicode(label);
  } catch {
    return label;
  }
}
