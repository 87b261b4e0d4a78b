/**
 * The last check before an accepted answer leaves the host: the content is validated with
 * ajv (draft 2020-12, ajv-formats) against the schema the server actually sent. Our own
 * validation should already guarantee this; this makes it a fact instead of a hope.
 *
 * Host only: ajv generates code at run time, which the webview's CSP forbids. It travels
 * in the lazily loaded SDK bundle (sdk.ts); createBroker loads it on the first answer.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { patternRegExp } from '../../elicitation/pattern';
import { LruCache, schemaKey } from '../../elicitation/schema-cache';

const CACHE_LIMIT = 64;

export class SchemaChecker {
  private readonly ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    // Otherwise a field named `valueOf` or `constructor` is "present" through the prototype.
    ownProperties: true,
    addUsedSchema: false,
    validateSchema: false,
    // The matcher the page and our validation use: same verdicts, linear time.
    code: { regExp: patternRegExp },
  });
  private readonly cache = new LruCache<ValidateFunction>(CACHE_LIMIT);

  constructor() {
    addFormats(this.ajv);
  }

  /** Returns ajv's complaints about `content` (empty when it is valid). */
  check(requestedSchema: Record<string, unknown>, content: unknown): string[] {
    const validate = this.compile(requestedSchema);
    if (validate(content)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  }

  private compile(requestedSchema: Record<string, unknown>): ValidateFunction {
    const key = schemaKey(requestedSchema);
    let validate = this.cache.get(key);
    if (!validate) {
      // `$schema` and `$id` would make ajv look up or register documents; the subset needs neither.
      const { $schema: _schema, $id: _id, ...schema } = requestedSchema;
      validate = this.ajv.compile(schema);
      this.cache.set(key, validate);
    }
    return validate;
  }
}
