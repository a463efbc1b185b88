/**
 * Subscription message templates of the service and their configuration.
 *
 * | name (env) | sent to | fields |
 * |---|---|---|
 * | `WX_TEMPLATE_REVIEW_RESULT` | the worker, when an administrator approves or rejects their report | result (已通过 / 已驳回), reportDate, comment (reject reason, or 审核通过 / 审核通过（明细已修正）), reviewer |
 * | `WX_TEMPLATE_NEW_REPORT` | every administrator, when a report is submitted | worker, reportDate, devices, submittedAt |
 *
 * The env value is the template id; unset: that notification is not sent. The template's data keys are chosen
 * in the platform's console, so each template has a field → key mapping, `WX_TEMPLATE_<NAME>_KEYS`, as
 * `field=key` pairs separated by commas (e.g. `result=phrase1,reportDate=date2,comment=thing3,reviewer=thing4`);
 * unset: DEFAULT_KEYS below; a field left out of the mapping is not sent. Values are given raw (dates
 * `YYYY-MM-DD`, instants ISO 8601) and cut to each key type's limit by the platform client
 * (src/platform/message-values.ts).
 */
export const TEMPLATE_FIELDS = {
  REVIEW_RESULT: ['result', 'reportDate', 'comment', 'reviewer'],
  NEW_REPORT: ['worker', 'reportDate', 'devices', 'submittedAt'],
} as const;

export type TemplateName = keyof typeof TEMPLATE_FIELDS;
export type FieldOf<N extends TemplateName> = (typeof TEMPLATE_FIELDS)[N][number];

export const DEFAULT_KEYS: { [N in TemplateName]: Record<FieldOf<N>, string> } = {
  REVIEW_RESULT: { result: 'phrase1', reportDate: 'date2', comment: 'thing3', reviewer: 'thing4' },
  NEW_REPORT: { worker: 'thing1', reportDate: 'date2', devices: 'thing3', submittedAt: 'time4' },
};

/**
 * Mini-program page opened from each message, with the report's id as the parameter that page reads: the worker's
 * own report (`pages/mine/detail`, as 我的报工 shows it) and the reviewer's report detail (`pages/review/detail`).
 * Both pages are in `miniprogram/app.json`; `test/miniprogram/messages.test.ts` opens the page of a real message.
 */
export const TEMPLATE_PAGES: Record<TemplateName, (reportId: string) => string> = {
  REVIEW_RESULT: (id) => `pages/mine/detail?reportId=${id}`,
  NEW_REPORT: (id) => `pages/review/detail?reportId=${id}`,
};

/**
 * The template ids a mini-program asks the person to subscribe to (`wx.requestSubscribeMessage`), as the login
 * answers and `GET /api/auth/me` give them: `reviewResult` (asked by a worker's 提交), `newReport` (asked by a
 * reviewer's 审核, 通过, 驳回). A template not configured is absent: the mini-program then asks for nothing.
 */
export interface MessageTemplateIds {
  reviewResult?: string;
  newReport?: string;
}

/** The configured template ids of `templates` (`config.templates`) as `MessageTemplateIds`. */
export function messageTemplateIds(templates: Readonly<Record<string, string>>): MessageTemplateIds {
  const ids: MessageTemplateIds = {};
  const review = templates.REVIEW_RESULT?.trim();
  const fresh = templates.NEW_REPORT?.trim();
  if (review) ids.reviewResult = review;
  if (fresh) ids.newReport = fresh;
  return ids;
}

export interface TemplateConfig {
  templateId: string;
  /** field → template data key */
  keys: Record<string, string>;
}

const KEY = /^[a-z_]+\d+$/;

/**
 * The configured templates from `config.templates` (the `WX_TEMPLATE_*` variables, keyed without the prefix).
 * Throws Error naming the variable when a `_KEYS` mapping is malformed or names an unknown field.
 */
export function templateConfigs(templates: Readonly<Record<string, string>>): Partial<Record<TemplateName, TemplateConfig>> {
  const out: Partial<Record<TemplateName, TemplateConfig>> = {};
  for (const name of Object.keys(TEMPLATE_FIELDS) as TemplateName[]) {
    const templateId = templates[name]?.trim();
    if (!templateId) continue;
    const spec = templates[`${name}_KEYS`];
    let keys: Record<string, string> = { ...DEFAULT_KEYS[name] };
    if (spec && spec.trim()) {
      keys = {};
      for (const pair of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
        const [field, key] = pair.split('=').map((s) => s?.trim());
        if (!(TEMPLATE_FIELDS[name] as readonly string[]).includes(field) || !key || !KEY.test(key)) {
          throw new Error(
            `WX_TEMPLATE_${name}_KEYS: "${pair}" is not field=key with a field of ${TEMPLATE_FIELDS[name].join(', ')} and a key like thing3`,
          );
        }
        keys[field] = key;
      }
    }
    out[name] = { templateId, keys };
  }
  return out;
}

/** The message data of `fields` under the template's keys (fields without a key are left out). */
export function templateData(cfg: TemplateConfig, fields: Record<string, string>): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) {
    const key = cfg.keys[field];
    if (key && value !== '') data[key] = value;
  }
  return data;
}
