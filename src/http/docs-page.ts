/**
 * `GET /api/docs`: the OpenAPI document rendered as one self-contained HTML page for a person (no scripts, no
 * external assets: factories' networks are often closed). Every operation with its role, parameters, request
 * body schema and answers, grouped by tag.
 */
type Doc = { info: { title: string; description?: string }; paths: Record<string, Record<string, any>> };

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const json = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;

/**
 * Renders the OpenAPI document `doc` as one self-contained HTML page (no scripts, no external assets), operations
 * grouped by their first tag, every value HTML-escaped.
 */
export function renderDocsPage(doc: Doc): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? [])
        .map((p: any) => `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? '必填' : ''}</td><td><code>${esc(JSON.stringify(p.schema))}</code></td></tr>`)
        .join('');
      const body = op.requestBody ? Object.entries<any>(op.requestBody.content).map(([ct, c]) => `<p>请求体 <code>${esc(ct)}</code></p>${json(c.schema)}`).join('') : '';
      const answers = Object.entries<any>(op.responses)
        .map(([status, r]) => `<tr><td>${esc(status)}</td><td>${esc(r.description)}</td></tr>`)
        .join('');
      const html = `<section id="${esc(op.operationId)}">
  <h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
  <p>${esc(op.summary)}</p><p class="d">${esc(op.description).replace(/\n/g, '<br>')}</p>
  ${params ? `<table><tr><th>参数</th><th>位置</th><th></th><th>类型</th></tr>${params}</table>` : ''}
  ${body}
  <table><tr><th>状态码</th><th>说明</th></tr>${answers}</table>
</section>`;
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const toc = [...byTag.keys()].map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join(' · ');
  const sections = [...byTag.entries()].map(([t, ops]) => `<h2 id="tag-${esc(t)}">${esc(t)}</h2>${ops.join('\n')}`).join('\n');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:bold;padding:0 .4rem;border-radius:3px;color:#fff}
.get{background:#2b7}.post{background:#37c}.patch{background:#c83}.delete{background:#c33}.put{background:#85c}
table{border-collapse:collapse;margin:.4rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;font-size:.9rem;text-align:left}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:.8rem}.d{color:#555}</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>${esc(doc.info.description)}</p><p>机器可读版本：<a href="/api/openapi.json">/api/openapi.json</a></p>
<nav>${toc}</nav>${sections}</body></html>`;
}
