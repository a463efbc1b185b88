/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) of the routes' zod schemas, for the API document.
 *
 * Some rules of a request are checked by the command or query behind a route, not by its zod schema, because they
 * answer with their own error code and a sentence about the line or the report (a quantity 0–10,000,000:
 * 422 INVALID_QUANTITY with `details.line`; a reject reason of 1–200 characters: 422 INVALID_REASON; both dates
 * of the dashboard: 422 INVALID_DATE_RANGE). The document must still state them, so that a client knows what is
 * accepted ("request schemas say what the service accepts, no looser"): `checkedRule(schema, keywords)`
 * attaches the JSON Schema keywords of such a rule to a schema, for the document only, and the route lists the
 * code the rule answers with. The contract test checks that requests valid by the document are accepted.
 */
import { z } from 'zod';

type Keywords = Record<string, unknown>;

const checkedRules = z.registry<Keywords>();

/**
 * A copy of `schema` documented with the JSON Schema `keywords` of a rule that the command behind the route
 * checks (module docstring). `required` lists are added to the schema's own.
 */
export function checkedRule<T extends z.ZodType>(schema: T, keywords: Keywords): T {
  const copy = schema.meta({}) as T;
  checkedRules.add(copy, keywords);
  return copy;
}

/**
 * The JSON Schema of `schema` for requests (`io: 'input'`) or answers (`'output'`), without the `$schema` line,
 * with the keywords of `checkedRule` merged in.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, any> {
  const js = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const extra = checkedRules.get(zodSchema as unknown as z.ZodType);
      if (!extra) return;
      const target = jsonSchema as Keywords;
      for (const [k, v] of Object.entries(extra)) {
        target[k] = k === 'required' ? [...new Set([...((target.required as string[]) ?? []), ...(v as string[])])] : v;
      }
    },
  }) as Record<string, any>;
  delete js.$schema;
  return js;
}
