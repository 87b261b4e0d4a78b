/**
 * Parses an MCP `requestedSchema` into the question model.
 *
 * Accepts exactly the subset MCP 2025-06-18 / 2025-11-25 allow (a flat object of
 * primitives, the three enum spellings, multi-select arrays), plus what ACP v1 adds to it
 * (`pattern` on strings, `description` on options). Unknown annotation keywords are
 * ignored. A JSON Schema keyword that would constrain answers in a way we do not check is
 * refused, since the person would be told an answer is fine that the server then rejects.
 * Every problem is reported with its path, so the server gets one precise -32602. This file
 * reads the schema as a whole (limits, the root, `required`, each default against its field);
 * schema-fields.ts reads each field, schema-reader.ts holds what both share.
 */
import type { FormModel, Question } from './model';
import { LIMITS } from './limits';
import { schemaKey } from './schema-cache';
import { parseProperty } from './schema-fields';
import { InvalidSchemaError, isRecord, type Json, overLimit, type ParseContext, Reader, ROOT_ALLOWED, type SchemaProblem, show, VALIDATION_KEYWORDS } from './schema-reader';
import { checkValue, defaultOf } from './validation';

export { describeProblems, InvalidSchemaError, overLimit, type SchemaProblem } from './schema-reader';

export type SchemaParseResult =
  | { readonly ok: true; readonly form: FormModel }
  | { readonly ok: false; readonly problems: readonly SchemaProblem[] };

/** Parses a requested schema; never throws, whatever the input. */
export function parseRequestedSchema(schema: Json): SchemaParseResult {
  if (!isRecord(schema)) {
    return { ok: false, problems: [{ path: 'requestedSchema', message: `must be an object schema, not ${show(schema)}` }] };
  }
  // Limits first, so an oversized schema costs no more than its measuring.
  const chars = schemaKey(schema).length;
  if (chars > LIMITS.schemaChars) {
    return { ok: false, problems: [{ path: 'requestedSchema', message: overLimit(chars, LIMITS.schemaChars, 'character', 'for a schema (as JSON)') }] };
  }
  const ctx: ParseContext = { problems: [], patternProgram: 0 };
  const problems = ctx.problems;
  const root = new Reader(ctx, 'requestedSchema', schema);
  if (schema.type !== 'object') {
    root.problem(`must be "object", not ${show(schema.type)}`, 'type');
  }
  for (const key of Object.keys(schema)) {
    if (VALIDATION_KEYWORDS.has(key) && !ROOT_ALLOWED.has(key)) {
      problems.push({ path: key, message: `'${key}' is not allowed at the top of an elicitation schema` });
    }
  }
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') {
    problems.push({ path: 'additionalProperties', message: 'may only be true or false in elicitation schemas' });
  }
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) {
    problems.push({ path: 'properties', message: `must be an object, not ${show(properties)}` });
    return { ok: false, problems };
  }
  const count = Object.keys(properties).length;
  if (count > LIMITS.properties) {
    problems.push({ path: 'properties', message: overLimit(count, LIMITS.properties, 'field', 'in one form') });
    return { ok: false, problems };
  }
  const required = new Set<string>();
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) {
      problems.push({ path: 'required', message: `must be an array of property names, not ${show(schema.required)}` });
    } else {
      schema.required.forEach((name, i) => {
        if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(properties, name)) {
          problems.push({ path: `required.${i}`, message: `${show(name)} is not one of the properties` });
        } else {
          required.add(name);
        }
      });
    }
  }
  const questions: Question[] = [];
  for (const [key, node] of Object.entries(properties)) {
    let question = parseProperty(ctx, key, node, required.has(key));
    if (!question) continue;
    // A default that breaks the field's own rules would be prefilled as if it were fine. Its
    // pattern is left to the answer's check: reading a schema compiles no pattern.
    const dflt = defaultOf(question);
    let message = dflt === undefined ? undefined : checkValue({ ...question, pattern: undefined } as Question, dflt);
    if (message !== undefined && dflt === '' && question.kind === 'text') {
      // `default: ""` is how many servers write "no default": read it so, nothing is at risk.
      const { defaultValue: _empty, ...withoutDefault } = question;
      question = withoutDefault;
      message = undefined;
    }
    if (message !== undefined) {
      problems.push({ path: `properties.${key}.default`, message: `${show(dflt)} breaks the field's own rules (${message})` });
      continue;
    }
    questions.push(question);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, form: { questions } };
}

/** Like parseRequestedSchema, but throws InvalidSchemaError. */
export function parseRequestedSchemaOrThrow(schema: Json): FormModel {
  const result = parseRequestedSchema(schema);
  if (!result.ok) throw new InvalidSchemaError(result.problems);
  return result.form;
}
