/**
 * The routes of a reason list (原因清单: 不良原因 and 停机原因 share them; commands/reason-list/decider.ts):
 * - `GET <path>[?active=true]` → every reason by code (everyone with a role: the phone's pickers ask `active=true`);
 * - `POST <path> {code, name, category}` → 201 the reason; 409 `<KIND>_REASON_EXISTS`;
 * - `PUT <path>/:code {name?, category?, active?}` → the reason as it stands (rename, recategorise, deactivate,
 *   reactivate). Administrators and managers of the whole factory maintain them; a reason is never deleted (a
 *   deactivated one stays on what names it).
 * `reasonListRoutes(spec)` makes the three from one kind's words, rules and calls.
 */
import { z } from 'zod';
import { access } from '../../auth/roles.ts';
import type { CommandActor, CommandDeps } from '../../commands/command.ts';
import type { ReasonListErrors } from '../../commands/reason-list/decider.ts';
import type { Queryable } from '../../db/transaction.ts';
import { checkedRule } from '../json-schema.ts';
import { actorOf, defineRoute, type AnyRoute, type ErrorDoc } from '../route.ts';
import { CONCURRENT_MODIFICATION, WHOLE_FACTORY_ONLY } from './error-docs.ts';

/** A reason as the routes answer it. */
export interface ReasonAnswer<Cat extends string> {
  code: string;
  name: string;
  category: Cat;
  active: boolean;
}

/** One kind of reason list: its path, words (Chinese, as the API document shows them), rules and calls. */
export interface ReasonListRouteSpec<Cat extends string> {
  readonly path: string;
  readonly tag: string;
  /** 不良原因 or 停机原因. */
  readonly label: string;
  readonly categories: readonly [Cat, ...Cat[]];
  readonly categoryDescription: string;
  /** Examples of names for the document, e.g. `划伤、材料裂纹`. */
  readonly nameExamples: string;
  /** Where an active reason can be chosen, e.g. `报工时`. */
  readonly chosenWhen: string;
  readonly createDescription: string;
  readonly changeDescription: string;
  readonly codeRe: RegExp;
  readonly codeMax: number;
  readonly nameMax: number;
  readonly errors: ReasonListErrors;
  /** Two reasons for the document's examples; the first is created, listed and deactivated. */
  readonly examples: readonly [ReasonAnswer<Cat>, ReasonAnswer<Cat>];
  list(q: Queryable, activeOnly: boolean): Promise<ReasonAnswer<Cat>[]>;
  define(deps: CommandDeps, actor: CommandActor, input: { code: string; name: string; category: Cat }): Promise<ReasonAnswer<Cat>>;
  change(deps: CommandDeps, actor: CommandActor, code: string, change: { name?: string; category?: Cat; active?: boolean }): Promise<ReasonAnswer<Cat>>;
}

/** The zod schema of a reason code of one kind, with its Chinese sentence (also used where stops name a reason). */
export function reasonCodeSchema(spec: Pick<ReasonListRouteSpec<string>, 'label' | 'codeRe' | 'codeMax' | 'examples'>) {
  const rule = `1–${spec.codeMax} 个英文字母、数字、- 或 _`;
  return z
    .string()
    .regex(spec.codeRe, { error: `${spec.label}编码请填写 ${rule}` })
    .meta({ title: `${spec.label}编码`, description: `${rule}，例如 ${spec.examples[0].code}` });
}

/** The three routes of one kind of reason list (module docstring). */
export function reasonListRoutes<Cat extends string>(spec: ReasonListRouteSpec<Cat>): AnyRoute[] {
  const { label, path, tag } = spec;
  const category = z.enum(spec.categories).meta({ title: '类别', description: spec.categoryDescription });
  const name = checkedRule(z.string().meta({ title: `${label}名称`, description: `1–${spec.nameMax} 个字，例如 ${spec.nameExamples}` }), { minLength: 1, maxLength: spec.nameMax });
  const code = reasonCodeSchema(spec);
  const reasonSchema = z.object({ code: z.string(), name: z.string(), category: z.enum(spec.categories), active: z.boolean() });
  const [first, second] = spec.examples;

  const invalid: ErrorDoc = {
    status: 422,
    code: spec.errors.invalid,
    description: `${label}的编码或名称不符合规则（details.field 为 code 或 name）`,
    details: z.object({ field: z.enum(['code', 'name']) }),
  };
  const exists: ErrorDoc = {
    status: 409,
    code: spec.errors.exists,
    description: `编码已被另一个${label}使用（details.name；details.active 为 false 时它已停用，可重新启用）`,
    details: z.object({ code: z.string(), name: z.string(), active: z.boolean() }),
  };
  const notFound: ErrorDoc = { status: 404, code: spec.errors.notFound, description: `没有这个${label}（details.code）`, details: z.object({ code: z.string() }) };

  const list = defineRoute({
    method: 'get',
    path,
    tag,
    summary: `${label}列表（所有有角色的用户；active=true 只列可选用的）`,
    access: 'authenticated',
    query: z.object({
      active: z
        .enum(['true', 'false'])
        .optional()
        .transform((v) => v === 'true')
        .meta({ title: '只看启用的', description: `true：只列启用的（${spec.chosenWhen}可选的）；不填或 false：全部，含已停用的` }),
    }),
    response: z.object({ items: z.array(reasonSchema) }),
    example: { query: { active: 'true' }, response: { items: [first, second] } },
    async handler({ query }, ctx) {
      return { items: await spec.list(ctx.db.pool, query.active) };
    },
  });

  const create = defineRoute({
    method: 'post',
    path,
    tag,
    summary: `新建${label}（管理员、经理）`,
    description: spec.createDescription,
    access: access.masterData,
    body: z.object({ code, name, category }),
    status: 201,
    response: reasonSchema,
    errors: [invalid, exists, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
    example: { body: { code: first.code, name: first.name, category: first.category }, response: first },
    async handler({ body, user, req }, ctx) {
      return spec.define(ctx.commands, actorOf(user, req), body);
    },
  });

  const change = defineRoute({
    method: 'put',
    path: `${path}/:code`,
    tag,
    summary: `修改${label}：改名、改类别、停用或重新启用（管理员、经理；不能删除）`,
    description: spec.changeDescription,
    access: access.masterData,
    params: z.object({ code }),
    body: z.object({ name: name.optional(), category: category.optional(), active: z.boolean().meta({ title: '启用' }).optional() }),
    response: reasonSchema,
    errors: [notFound, invalid, WHOLE_FACTORY_ONLY, CONCURRENT_MODIFICATION],
    example: { params: { code: first.code }, body: { active: false }, response: { ...first, active: false } },
    async handler({ params, body, user, req }, ctx) {
      return spec.change(ctx.commands, actorOf(user, req), params.code, body);
    },
  });

  return [list, create, change];
}
