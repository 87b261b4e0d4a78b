/**
 * What reading a requested schema shares: the problems it reports (each with its path, so the
 * server gets one precise -32602), the JSON Schema keywords that constrain answers (refused
 * outside the elicitation subset), and a Reader that reads one node's keywords and records
 * what is wrong with them. schema.ts reads the whole schema, schema-fields.ts each field.
 */
export interface SchemaProblem {
  /** Where, as a dotted path from the schema's root: `properties.address`. */
  readonly path: string;
  readonly message: string;
}

export class InvalidSchemaError extends Error {
  constructor(readonly problems: readonly SchemaProblem[]) {
    super(describeProblems(problems));
    this.name = 'InvalidSchemaError';
  }
}

export function describeProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('; ');
}

/**
 * Keywords of JSON Schema 2020-12 that constrain which instances are valid. Any of these
 * outside the elicitation subset is refused; every other unknown keyword is an annotation.
 */
export const VALIDATION_KEYWORDS = new Set([
  '$ref', '$dynamicRef', '$recursiveRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
  'dependentSchemas', 'dependentRequired', 'dependencies', 'prefixItems', 'items', 'additionalItems',
  'contains', 'minContains', 'maxContains', 'properties', 'patternProperties', 'additionalProperties',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'type', 'enum', 'const', 'multipleOf',
  'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'format',
  'contentEncoding', 'contentMediaType', 'contentSchema',
]);

export const ALLOWED_BY_TYPE: Record<string, ReadonlySet<string>> = {
  string: new Set(['type', 'minLength', 'maxLength', 'format', 'pattern', 'enum', 'oneOf']),
  number: new Set(['type', 'minimum', 'maximum']),
  integer: new Set(['type', 'minimum', 'maximum']),
  boolean: new Set(['type']),
  array: new Set(['type', 'items', 'minItems', 'maxItems', 'uniqueItems']),
};

export const ROOT_ALLOWED = new Set(['type', 'properties', 'required', 'additionalProperties']);

export type Json = unknown;

export function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function show(value: Json): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `overLimit(150, 100, 'field', 'in one form')`: a problem text that names the limit. */
export function overLimit(actual: number, limit: number, unit: string, where: string): string {
  const count = (n: number): string => `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;
  return `has ${count(actual)}, over the limit of ${count(limit)} ${where}`;
}

/** What one schema's reading shares: its problems, and what its patterns have used of their budget. */
export interface ParseContext {
  readonly problems: SchemaProblem[];
  patternProgram: number;
}

/** Collects problems while reading one schema node. */
export class Reader {
  private readonly problems: SchemaProblem[];

  constructor(
    readonly ctx: ParseContext,
    readonly path: string,
    readonly node: Record<string, Json>,
  ) {
    this.problems = ctx.problems;
  }

  child(key: string, node: Record<string, Json>): Reader {
    return new Reader(this.ctx, `${this.path}.${key}`, node);
  }

  problem(message: string, key?: string): void {
    this.problems.push({ path: key === undefined ? this.path : `${this.path}.${key}`, message });
  }

  refuseUnsupported(allowed: ReadonlySet<string>, kindName: string): void {
    for (const key of Object.keys(this.node)) {
      if (VALIDATION_KEYWORDS.has(key) && !allowed.has(key)) {
        this.problem(`'${key}' is not allowed on ${kindName} in elicitation schemas`, key);
      }
    }
  }

  text(key: string): string | undefined {
    const value = this.node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.problem(`must be a string, not ${show(value)}`, key);
      return undefined;
    }
    return value;
  }

  count(key: string): number | undefined {
    const value = this.node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      this.problem(`must be a whole number of at least 0, not ${show(value)}`, key);
      return undefined;
    }
    return value;
  }

  finite(key: string): number | undefined {
    const value = this.node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.problem(`must be a number, not ${show(value)}`, key);
      return undefined;
    }
    return value;
  }

  range(minKey: string, maxKey: string, min: number | undefined, max: number | undefined): void {
    if (min !== undefined && max !== undefined && min > max) {
      this.problem(`${minKey} ${min} is greater than ${maxKey} ${max}, so no answer could be valid`, minKey);
    }
  }
}
