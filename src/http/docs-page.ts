/**
 * `GET /api/docs`: the OpenAPI document rendered as one self-contained HTML page for a person (no scripts, no
 * external assets: factories' networks are often closed). First the guide for the mini-program's developer (the
 * document's description, http/guide.ts), then every operation grouped by tag: its role, its parameters and request
 * body as a table of fields (name, Chinese label, type, required, rules, meaning) with an example, its success
 * answer the same way, and its error answers with their codes.
 */
type Schema = Record<string, any>;
type Doc = { info: { title: string; description?: string }; tags?: { name: string; description?: string }[]; paths: Record<string, Record<string, any>> };

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const FORMATS: Record<string, string> = { date: '日期 YYYY-MM-DD', 'date-time': '时间 ISO 8601', uuid: '编号（UUID）', binary: '文件' };
const TYPES: Record<string, string> = { string: '文字', integer: '整数', number: '数字', boolean: '是或否', array: '列表', object: '对象', null: '空' };

/** The type of a schema as a person reads it (文字, 整数, 日期, 可选值 …, 或 …). */
export function typeText(s: Schema): string {
  if (s.const === '') return '空';
  if (s.const !== undefined) return `固定为 ${JSON.stringify(s.const)}`;
  if (s.enum) return `可选值：${s.enum.map((v: unknown) => String(v)).join('、')}`;
  const alts = s.anyOf ?? s.oneOf;
  if (alts && !s.type) return alts.map(typeText).join('，或 ');
  if (s.format && FORMATS[s.format]) return FORMATS[s.format];
  if (s.type === 'array') return `${typeText(s.items ?? {})}的列表`;
  if (Array.isArray(s.type)) return s.type.map((t: string) => TYPES[t] ?? t).join('或');
  return TYPES[s.type] ?? '任意';
}

/** The rules of a schema in words (length, range, count, pattern, default). */
function rulesText(s: Schema): string {
  const out: string[] = [];
  const range = (lo: unknown, hi: unknown, unit = '') =>
    lo !== undefined && hi !== undefined ? `${lo}–${hi}${unit}` : lo !== undefined ? `≥ ${lo}${unit}` : `≤ ${hi}${unit}`;
  if (s.minLength !== undefined || s.maxLength !== undefined) out.push(range(s.minLength, s.maxLength, ' 个字'));
  const max = s.maximum !== undefined && Math.abs(s.maximum) < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  const min = s.minimum !== undefined && Math.abs(s.minimum) < Number.MAX_SAFE_INTEGER ? s.minimum : undefined;
  if (min !== undefined || max !== undefined) out.push(range(min, max));
  if (s.exclusiveMinimum !== undefined) out.push(`> ${s.exclusiveMinimum}`);
  if (s.minItems !== undefined || s.maxItems !== undefined) out.push(range(s.minItems, s.maxItems, ' 项'));
  if (s.pattern === '\\S') out.push('不能只有空白');
  else if (s.pattern && !s.format) out.push(`格式 ${s.pattern}`);
  if (s.default !== undefined) out.push(`默认 ${JSON.stringify(s.default)}`);
  return out.join('；');
}

/** Rows `[name, schema, required]` of the fields of an object schema, nested fields as `a.b` and `a[].b`. */
function fieldRows(s: Schema, prefix = '', depth = 0): [string, Schema, boolean][] {
  const rows: [string, Schema, boolean][] = [];
  const required: string[] = s.required ?? [];
  for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
    const path = prefix + name;
    rows.push([path, prop, required.includes(name)]);
    if (depth < 3) {
      const inner = prop.type === 'array' ? prop.items : prop;
      const nested = inner?.anyOf?.find((x: Schema) => x.type === 'object') ?? inner;
      if (nested?.properties) rows.push(...fieldRows(nested, `${path}${prop.type === 'array' ? '[]' : ''}.`, depth + 1));
    }
  }
  return rows;
}

/** A schema as a table of its fields (or one line for a schema that is not an object), and its alternatives. */
export function schemaTable(s: Schema): string {
  if (!s.properties) return `<p>${esc(typeText(s))}${rulesText(s) ? `（${esc(rulesText(s))}）` : ''}</p>`;
  const rows = fieldRows(s)
    .map(
      ([name, p, required]) =>
        `<tr><td><code>${esc(name)}</code></td><td>${esc(p.title ?? '')}</td><td>${esc(typeText(p))}</td><td>${required ? '必填' : '可选'}</td><td>${esc(rulesText(p))}</td><td>${esc(p.description ?? '')}</td></tr>`,
    )
    .join('');
  const alts = s.oneOf ?? s.anyOf;
  const choice = alts
    ? `<p class="d">${s.oneOf ? '以下必须且只能满足一项' : '至少满足以下一项'}：${alts.map((a: Schema) => esc((a.required ?? []).join(' + '))).join('；')}</p>`
    : '';
  return `<table><tr><th>字段</th><th>名称</th><th>类型</th><th></th><th>规则</th><th>说明</th></tr>${rows}</table>${choice}`;
}

const example = (v: unknown) => (v === undefined ? '' : `<details><summary>示例</summary><pre>${esc(JSON.stringify(v, null, 2))}</pre></details>`);

function parametersTable(all: any[]): string {
  const objects = all
    .filter((p) => p.schema?.properties)
    .map((p) => `<h4>查询参数</h4>${schemaTable(p.schema)}${p.example ? `<p class="d">示例：<code>?${esc(new URLSearchParams(p.example).toString())}</code></p>` : ''}`)
    .join('');
  const params = all.filter((p) => !p.schema?.properties);
  if (!params.length) return objects;
  const rows = params
    .map((p) => {
      const [title, ...rest] = String(p.description ?? '').split('：');
      return `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in === 'path' ? '路径' : '查询')}</td><td>${esc(title)}</td><td>${esc(typeText(p.schema))}</td><td>${p.required ? '必填' : '可选'}</td><td>${esc(rulesText(p.schema))}</td><td>${esc(rest.join('：'))}</td></tr>`;
    })
    .join('');
  const sample = params.filter((p) => p.example !== undefined);
  return `<h4>参数</h4><table><tr><th>参数</th><th>位置</th><th>名称</th><th>类型</th><th></th><th>规则</th><th>说明</th></tr>${rows}</table>${
    sample.length ? `<p class="d">示例：${sample.map((p) => `<code>${esc(p.name)}=${esc(p.example)}</code>`).join(' ')}</p>` : ''
  }${objects}`;
}

function operationHtml(path: string, method: string, op: any): string {
  const body = op.requestBody
    ? Object.entries<any>(op.requestBody.content)
        .map(([ct, c]) => `<h4>请求体 <code>${esc(ct)}</code></h4>${schemaTable(c.schema)}${example(c.example)}`)
        .join('')
    : '';
  const answers = Object.entries<any>(op.responses)
    .map(([status, r]) => {
      const media = r.content ? Object.entries<any>(r.content)[0] : undefined;
      if (Number(status) < 400) {
        const shape = media ? (media[1].schema.format === 'binary' ? `<p><code>${esc(media[0])}</code> 文件</p>` : schemaTable(media[1].schema) + example(media[1].example)) : '<p>没有响应体</p>';
        return `<h4>成功 ${esc(status)}</h4>${shape}`;
      }
      return '';
    })
    .join('');
  const errors = Object.entries<any>(op.responses)
    .filter(([status]) => Number(status) >= 400)
    .map(([status, r]) => `<tr><td>${esc(status)}</td><td>${esc(r.description).replace(/；/g, '<br>')}</td></tr>`)
    .join('');
  return `<section id="${esc(op.operationId)}">
  <h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
  <p>${esc(op.summary)}</p><p class="d">${esc(op.description).replace(/\n/g, '<br>')}${op.security?.length ? '<br>请求头 Authorization: Bearer &lt;token&gt;' : ''}</p>
  ${parametersTable(op.parameters ?? [])}
  ${body}
  ${answers}
  <h4>错误</h4><table><tr><th>状态码</th><th>code：何时</th></tr>${errors}</table>
</section>`;
}

/**
 * Renders the OpenAPI document `doc` as one self-contained HTML page (module docstring). The document's
 * description (the guide) is the service's own HTML; every other value is HTML-escaped.
 */
export function renderDocsPage(doc: Doc): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(path, method, op)]);
    }
  }
  const tagText = new Map((doc.tags ?? []).map((t) => [t.name, t.description ?? t.name]));
  const toc = [...byTag.keys()].map((t) => `<a href="#tag-${esc(t)}">${esc(tagText.get(t) ?? t)}</a>`).join(' · ');
  const sections = [...byTag.entries()].map(([t, ops]) => `<h2 id="tag-${esc(t)}">${esc(tagText.get(t) ?? t)}</h2>${ops.join('\n')}`).join('\n');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:68rem;margin:2rem auto;padding:0 1rem;color:#222}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:bold;padding:0 .4rem;border-radius:3px;color:#fff}
.get{background:#2b7}.post{background:#37c}.patch{background:#c83}.delete{background:#c33}.put{background:#85c}
table{border-collapse:collapse;margin:.4rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;font-size:.9rem;text-align:left;vertical-align:top}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:.8rem}.d{color:#555}h4{margin:.6rem 0 .2rem}</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>机器可读版本：<a href="/api/openapi.json">/api/openapi.json</a>（OpenAPI 3.1）</p>
${doc.info.description ?? ''}
<h2>接口</h2><nav>${toc}</nav>${sections}</body></html>`;
}
