/**
 * fast-check arbitraries from JSON Schema, for the fuzz test (test/api/fuzz.test.ts): each route's zod
 * declarations are turned into JSON Schema by zod itself (`z.toJSONSchema`, input side), and `arbitraryOf(schema)`
 * generates values that schema describes: objects with their required and some optional properties, strings
 * within their lengths, patterns and formats, numbers within their bounds, enums, unions, arrays, null. What the
 * schema leaves open (`{}`) is any JSON value. Sizes are kept small: the mutations of the fuzz test make the
 * huge and the wrong ones.
 */
import fc from 'fast-check';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};

const DATE = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

/** An arbitrary of the values `schema` describes (module docstring). */
export function arbitraryOf(schema: JsonSchema | boolean | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) return fc.constant(undefined);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, depth + 1)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0], depth + 1);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((t) => arbitraryOf({ ...schema, type: t }, depth + 1)));
  switch (schema.type) {
    case 'object': {
      const props = schema.properties ?? {};
      if (Object.keys(props).length === 0 && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return fc.dictionary(fc.string({ maxLength: 8 }), arbitraryOf(schema.additionalProperties, depth + 1), { maxKeys: 4 });
      }
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) shape[k] = arbitraryOf(v, depth + 1);
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((k) => k in shape) });
    }
    case 'array':
      return fc.array(arbitraryOf(schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 100_000, 1e9) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date') return DATE;
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
    } catch {
      // a pattern fast-check cannot read: plain strings below
    }
  }
  const min = schema.minLength ?? 0;
  return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(schema.maxLength ?? 12, 12)), unit: fc.oneof(fc.constantFrom('a', '1', ' ', '中', '-'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) });
}
