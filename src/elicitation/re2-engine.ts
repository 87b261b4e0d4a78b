/**
 * The linear-time regular expression engine, on its own: the extension's build makes this
 * dist/re2.js, loaded by pattern.ts on the first pattern (see re2() there).
 */
export { RE2JS } from 're2js';
