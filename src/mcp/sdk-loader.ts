/** Loads the SDK bundle once, on first use. */
export type Sdk = typeof import('./sdk');

let loaded: Sdk | undefined;

export async function loadSdk(): Promise<Sdk> {
  // A plain require: the extension host loads CommonJS reliably; the build maps './sdk' to dist/mcp-sdk.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./sdk') as Sdk;
  return loaded;
}

/**
 * The broker's check of an answer against the requested schema. ajv travels in the SDK
 * bundle: the first answer loads it if no server has yet.
 */
export function lazyContentCheck(): (schema: Record<string, unknown>, content: Record<string, unknown>) => Promise<string[]> {
  let checker: InstanceType<Sdk['SchemaChecker']> | undefined;
  return async (schema, content) => {
    checker ??= new (await loadSdk()).SchemaChecker();
    return checker.check(schema, content);
  };
}
