/**
 * Replaces `@modelcontextprotocol/client/_shims` and `@modelcontextprotocol/server/_shims` in
 * our bundles (an esbuild alias): each SDK package's own shim inlines another copy of ajv for
 * validating schemas. This one serves the same purpose with the ajv the extension already
 * carries, and gives the server's stdio transport Node's process, as the server's shim does.
 */
import process from 'node:process';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export const CORS_IS_POSSIBLE = false;
export { process };

type Validator<T> = (input: unknown) => { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };

export class DefaultJsonSchemaValidator {
  private ajv: Ajv2020 | undefined;

  getValidator<T>(schema: Record<string, unknown>): Validator<T> {
    if (!this.ajv) {
      this.ajv = new Ajv2020({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
      addFormats(this.ajv);
    }
    // The dialect is ours to choose (2020-12); a declared `$schema` would make ajv look it up.
    const { $schema: _dialect, ...rest } = schema;
    const validate = this.ajv.compile(rest);
    return (input) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: this.ajv!.errorsText(validate.errors) };
  }
}
