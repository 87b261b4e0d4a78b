/**
 * What the person must know about a link before opening it: the scheme and host, the host
 * in Unicode and in Punycode, and the tricks a link can play (plain http, a bare IP
 * address, a user name before the host, look-alike characters). Links that are not web
 * pages (javascript:, data:, file:, vscode:, command:...) or do not parse are refused.
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
      /** The host as a person reads it (Unicode). */
      readonly host: string;
      /** The host as the browser will use it (ASCII, Punycode), when it differs. */
      readonly asciiHost?: string;
      readonly port?: string;
      readonly warnings: readonly string[];
    };

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

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
  const warnings: string[] = [];
  if (scheme === 'http' && !LOOPBACK.test(asciiHost)) {
    warnings.push('The link uses plain http: the page and what you send to it are not encrypted.');
  }
  if (IPV4.test(asciiHost) || asciiHost.startsWith('[')) {
    warnings.push(
      LOOPBACK.test(asciiHost)
        ? `The host is a bare IP address (${asciiHost}): a program on this computer, not a site you can recognise by name.`
        : `The host is a bare IP address (${asciiHost}), not a name you can recognise.`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    const shown = safeDecode(parsed.username);
    warnings.push(`The link puts "${shown}" before an @ sign: that is a user name, not the site. The site is ${unicodeHost}.`);
  }
  if (unicodeHost !== asciiHost) {
    warnings.push(`The host has non-ASCII characters that can imitate other letters; the browser goes to ${asciiHost}.`);
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
