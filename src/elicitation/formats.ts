/**
 * The four string formats MCP elicitation allows, checked by the rules ajv-formats ("full"
 * mode) applies on the host's final check: RFC 3339 dates and date-times, RFC 3986 URIs,
 * and email addresses. Written out here so the webview carries only these four, not every
 * format ajv knows; a property test holds the two to the same verdicts.
 */
import type { TextFormat } from './model';

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** RFC 3339 full-date: YYYY-MM-DD, a real day of a real month. */
export function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]);
}

/** RFC 3339 full-time with a required offset; a leap second only at 23:59 UTC. */
function isTime(text: string): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)(z|([+-])(\d{2})(?::?(\d{2}))?)?$/i.exec(text);
  if (!m || !m[4]) return false;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const sign = m[5] === '-' ? -1 : 1;
  const offsetHours = Number(m[6] ?? 0);
  const offsetMinutes = Number(m[7] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  const utcMinute = minute - offsetMinutes * sign;
  const utcHour = hour - offsetHours * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/** RFC 3339 date-time: a date and a time with an offset, joined by T (or a space). */
export function isDateTime(text: string): boolean {
  const parts = text.split(/t|\s/i);
  return parts.length === 2 && isDate(parts[0]) && isTime(parts[1]);
}

// RFC 3986, assembled from its grammar (case-insensitive).
const PCT = '%[0-9a-f]{2}';
const UNRESERVED_SUB = "a-z0-9\\-._~!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED_SUB}:@]|${PCT})`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const DEC_OCTET = '(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)';
const IPV4 = `(?:${DEC_OCTET}\\.){3}${DEC_OCTET}`;
const H16 = '[0-9a-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|');
const IP_FUTURE = `v[0-9a-f]+\\.[${UNRESERVED_SUB}:]+`;
const HOST = `(?:\\[(?:${IPV6}|${IP_FUTURE})\\]|${IPV4}|(?:[${UNRESERVED_SUB}]|${PCT})*)`;
const AUTHORITY = `(?:(?:[${UNRESERVED_SUB}:]|${PCT})*@)?${HOST}(?::\\d*)?`;
const HIER_PART = [
  // "//" authority path-abempty (ajv-formats also takes a single slash here)
  `\\/?\\/${AUTHORITY}(?:\\/${SEGMENT})*`,
  `\\/(?:${SEGMENT_NZ}(?:\\/${SEGMENT})*)?`,
  `${SEGMENT_NZ}(?:\\/${SEGMENT})*`,
].join('|');
const QUERY_OR_FRAGMENT = `(?:[${UNRESERVED_SUB}:@/?]|${PCT})*`;
const URI = new RegExp(`^[a-z][a-z0-9+\\-.]*:(?:${HIER_PART})(?:\\?${QUERY_OR_FRAGMENT})?(?:#${QUERY_OR_FRAGMENT})?$`, 'i');

/** An absolute RFC 3986 URI (a scheme, then at least a slash or colon's worth of address). */
export function isUri(text: string): boolean {
  return /\/|:/.test(text) && URI.test(text);
}

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** An email address: dot-separated atoms, an @, and a dotted domain name. */
export function isEmail(text: string): boolean {
  return EMAIL.test(text);
}

export const FORMAT_CHECKS: Readonly<Record<TextFormat, (text: string) => boolean>> = {
  email: isEmail,
  uri: isUri,
  date: isDate,
  'date-time': isDateTime,
};
