/** Tool arguments from a tool's input schema. */

function properties(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  const props = (schema as { properties?: unknown }).properties;
  return typeof props === 'object' && props !== null ? (props as Record<string, unknown>) : {};
}

/** The defaults the schema declares for its top-level properties. */
export function schemaDefaults(schema: unknown): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties(schema)).flatMap(([key, prop]) =>
      typeof prop === 'object' && prop !== null && 'default' in prop ? [[key, (prop as { default: unknown }).default]] : [],
    ),
  );
}

/** A starting point for editing arguments by hand: defaults where given, empty values of the right type elsewhere. */
export function argumentSkeleton(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if (s.default !== undefined) return s.default;
  if (s.type === 'object' || s.properties) {
    return Object.fromEntries(Object.entries(properties(s)).map(([k, v]) => [k, argumentSkeleton(v)]));
  }
  if (s.type === 'array') return [];
  if (s.type === 'string') return '';
  if (s.type === 'number' || s.type === 'integer') return 0;
  if (s.type === 'boolean') return false;
  return null;
}

/** Arguments for one tool of `call-all`: the given ones the tool knows, over its defaults. */
export function argumentsFor(schema: unknown, given: Record<string, unknown>): Record<string, unknown> {
  const known = properties(schema);
  return { ...schemaDefaults(schema), ...Object.fromEntries(Object.entries(given).filter(([k]) => k in known)) };
}
