/**
 * Validation of a request's params, query and body with the route's zod schemas, in Chinese.
 *
 * zod speaks Chinese through its own locale (`z.config(z.locales.zhCN())`, set here once for the process). Its
 * sentences name types in English (`期望 string，实际接收 undefined`) and not the field, so each issue's message is
 * written here instead, as one sentence naming the field by its Chinese label: the `title` of the field's schema
 * (`.meta({ title: '设备编号' })`), found by walking the route's schema along the issue's path. Array items are
 * named by position (`明细第 2 项的成品数量`). An issue a schema words itself (a refinement's message) keeps its
 * words; an issue of a kind not worded here falls back to the zod locale.
 *
 * `parseInput(schema, value, part)` parses one part of a request and throws the ZodError (mapped to 422
 * VALIDATION_FAILED by errors.ts); `fieldLabel(schema, path)` gives the label of a path.
 */
import { z } from 'zod';

z.config(z.locales.zhCN());

/** Which part of the request a schema validates; names the part when an issue is about the whole of it. */
export type RequestPart = 'params' | 'query' | 'body';

const PART_LABELS: Record<RequestPart, string> = { params: '路径参数', query: '查询参数', body: '请求内容' };

type AnySchema = z.core.$ZodType;

/** The schema inside wrappers that do not change the shape (optional, nullable, default, pipe input, …). */
function unwrapOnce(s: AnySchema): AnySchema | undefined {
  const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return def.innerType as AnySchema;
    case 'pipe':
      return def.in as AnySchema;
    case 'lazy':
      return (def.getter as () => AnySchema)();
    default:
      return undefined;
  }
}

const titleOf = (s: AnySchema): string | undefined => z.globalRegistry.get(s)?.title;

/** The first title found on `s` or the schemas it wraps, and the innermost schema. */
function resolve(s: AnySchema): { title?: string; inner: AnySchema } {
  let title = titleOf(s);
  let inner = s;
  for (let next = unwrapOnce(inner); next; next = unwrapOnce(inner)) {
    inner = next;
    title ??= titleOf(inner);
  }
  return { title, inner };
}

/** The schema of member `key` of `s` (object property, array item, record value, union member), if any. */
function member(s: AnySchema, key: PropertyKey): AnySchema | undefined {
  const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'object':
      return typeof key === 'string' && Object.hasOwn(def.shape as object, key) ? (def.shape as Record<string, AnySchema>)[key] : undefined;
    case 'array':
      return typeof key === 'number' ? (def.element as AnySchema) : undefined;
    case 'record':
      return def.valueType as AnySchema;
    case 'union':
      for (const option of def.options as AnySchema[]) {
        const m = member(resolve(option).inner, key);
        if (m) return m;
      }
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The Chinese label of the field at `path` in `schema`: the titles along the path joined by 的, array items by
 * position (`明细第 2 项的成品数量`); a key without a title is named as it is. The empty path gives ''.
 */
export function fieldLabel(schema: AnySchema, path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  let node: AnySchema | undefined = schema;
  for (const key of path) {
    const next: AnySchema | undefined = node ? member(resolve(node).inner, key) : undefined;
    if (typeof key === 'number') {
      const last = parts.length - 1;
      if (last >= 0) parts[last] += `第 ${key + 1} 项`;
      else parts.push(`第 ${key + 1} 项`);
    } else {
      parts.push((next && resolve(next).title) ?? String(key));
    }
    node = next;
  }
  return parts.join('的');
}

const TYPE_NAMES: Record<string, string> = {
  string: '文字',
  number: '数字',
  int: '整数',
  boolean: '是或否',
  array: '列表',
  object: '对象',
  record: '对象',
  date: '日期',
  null: '空值',
};

const FORMAT_HINTS: Record<string, string> = {
  date: '应为有效日期，例如 2026-03-02',
  datetime: '应为带时区的时间，例如 2026-03-02T08:00:00+08:00',
  uuid: '格式不正确，应为系统给出的编号',
  guid: '格式不正确，应为系统给出的编号',
};

const quantity = (origin: string, n: number | bigint) =>
  origin === 'string' ? `${n} 个字` : origin === 'array' || origin === 'set' ? `${n} 项` : String(n);

/** One Chinese sentence for `iss` about the field called `label`; undefined for kinds left to the locale. */
function sentence(label: string, iss: z.core.$ZodRawIssue): string | undefined {
  switch (iss.code) {
    case 'invalid_type': {
      if (iss.input === undefined) return `请填写${label}`;
      const expected = TYPE_NAMES[iss.expected as string] ?? '有效的值';
      return `${label}应为${expected}`;
    }
    case 'too_small': {
      const origin = String(iss.origin);
      if (origin === 'string' && Number(iss.minimum) === 1) return `${label}不能为空`;
      if (origin === 'array' || origin === 'set') return `${label}至少要有 ${quantity(origin, iss.minimum)}`;
      if (origin === 'string') return `${label}至少要 ${quantity(origin, iss.minimum)}`;
      return iss.inclusive ? `${label}不能小于 ${iss.minimum}` : `${label}应大于 ${iss.minimum}`;
    }
    case 'too_big': {
      const origin = String(iss.origin);
      if (origin === 'string' || origin === 'array' || origin === 'set') return `${label}最多 ${quantity(origin, iss.maximum)}`;
      return iss.inclusive ? `${label}不能大于 ${iss.maximum}` : `${label}应小于 ${iss.maximum}`;
    }
    case 'invalid_value': {
      const values = iss.values.map(String);
      return values.length === 1 ? `${label}只能是 ${values[0]}` : `${label}只能是 ${values.join('、')} 之一`;
    }
    case 'invalid_format':
      if (iss.format === 'regex' && iss.pattern === String(NON_BLANK)) return `${label}不能为空`;
      return `${label}${FORMAT_HINTS[iss.format] ?? '格式不正确'}`;
    case 'not_multiple_of':
      return `${label}应为 ${iss.divisor} 的整数倍`;
    case 'unrecognized_keys':
      return `${label}中有不认识的字段：${iss.keys.join('、')}`;
    case 'invalid_union': {
      // Every alternative refused the type (e.g. text or a list of texts): name the types.
      const expected = iss.errors.map((alt) => (alt.length === 1 && alt[0].code === 'invalid_type' && alt[0].path.length === 0 ? TYPE_NAMES[alt[0].expected] : undefined));
      if (iss.errors.length > 0 && expected.every(Boolean)) return `${label}应为${[...new Set(expected)].join('或')}`;
      return `${label}的内容不符合要求`;
    }
    case 'invalid_key':
    case 'invalid_element':
      return `${label}中有无效的内容`;
    case 'custom':
      return `${label}不符合要求`;
    default:
      return undefined;
  }
}

const NON_BLANK = /\S/;

/**
 * Text of at most `max` characters with at least one non-blank character, trimmed after the checks (so the
 * document's `maxLength` and `pattern: \S` say exactly what is accepted).
 */
export const nonBlankText = (max: number) => z.string().max(max).regex(NON_BLANK).trim();

/**
 * Parses `value` with `schema` (one part of a request) and returns the parsed value. Throws the ZodError whose
 * issues carry the Chinese sentences of the module docstring.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, part: RequestPart): z.output<T> {
  return schema.parse(value, {
    error: (iss) => sentence(fieldLabel(schema, iss.path ?? []) || PART_LABELS[part], iss),
  });
}
