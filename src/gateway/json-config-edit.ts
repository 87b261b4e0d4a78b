/**
 * Edits an agent's JSON (or JSON with comments) settings file in place: sets or removes
 * keys and keeps everything else as written (other servers, comments, order, indent).
 * A file that does not parse is never rewritten: the caller says so instead. Pure.
 */
import { applyEdits, type FormattingOptions, modify, parse, type ParseError, printParseErrorCode } from 'jsonc-parser';

export class ConfigParseError extends Error {}

type JsonPath = ReadonlyArray<string | number>;

/** Reads the file's value; `undefined` text is an empty file. */
export function readJsonConfig(text: string | undefined, file: string): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0];
    throw new ConfigParseError(`${file} is not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset}); fix it, then try again`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigParseError(`${file} does not hold a JSON object`);
  return value as Record<string, unknown>;
}

/** The indent the file already uses (two spaces for a new file). */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)"/.exec(text)?.[1];
  return indent?.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol: '\n' } : { insertSpaces: true, tabSize: indent?.length ?? 2, eol: '\n' };
}

/** Applies `changes` in order (`undefined` removes the key); the result ends with a newline. */
export function editJsonConfig(text: string | undefined, changes: ReadonlyArray<readonly [JsonPath, unknown]>): string {
  let current = text === undefined || text.trim() === '' ? '{}' : text;
  const formattingOptions = formattingOf(current);
  for (const [path, value] of changes) {
    current = applyEdits(current, modify(current, [...path], value, { formattingOptions }));
  }
  return current.endsWith('\n') ? current : `${current}\n`;
}
