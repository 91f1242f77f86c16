/**
 * GET /api/v1/docs: HTML generated from routes.ts, the zod schemas (through the OpenAPI document)
 * and the error catalog. Every error code has an anchor, so an error body's `docs` link lands on it.
 */
import { type Route, routeList } from '../api/routes.js';
import { DEPTH_COST, LIMITS } from '../api/schemas.js';
import { ERROR_CATALOG } from './errors.js';
import { codesByStatus, openApiDocument } from './openapi.js';
import { SEED_KEYS, TIER_RATE } from './state.js';

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Json = Record<string, unknown>;

function typeOf(s: Json | undefined): string {
  if (!s) return '';
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.anyOf)) return (s.anyOf as Json[]).map(typeOf).join(' | ');
  const bounds = ['minimum', 'maximum', 'minLength', 'maxLength'].filter((k) => s[k] !== undefined).map((k) => `${k} ${String(s[k])}`);
  return `${String(s.type ?? 'any')}${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
}

function fieldRows(schema: Json | undefined): string {
  const props = (schema?.properties ?? {}) as Record<string, Json>;
  const required = (schema?.required ?? []) as string[];
  return Object.entries(props)
    .map(([name, s]) => {
      const nested = s.type === 'object' && s.properties ? `<br>${Object.keys(s.properties as Json).map((k) => `${esc(name)}.${esc(k)}`).join(', ')}` : '';
      return `<tr><td><code>${esc(name)}</code></td><td>${esc(typeOf(s))}${nested}</td><td>${required.includes(name) ? 'yes' : 'no'}</td></tr>`;
    })
    .join('');
}

function operationHtml(r: Route, op: Json): string {
  const codes = codesByStatus();
  const statuses = r.statuses.map((s) => `<li><b>${s}</b>${r.responses[s] ? ' success' : ''}${(codes.get(s) ?? []).length && !r.responses[s] ? `: ${(codes.get(s) ?? []).map((c) => `<a href="#${c}"><code>${c}</code></a>`).join(', ')}` : ''}</li>`).join('');
  const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined;
  const params = (op.parameters ?? []) as Json[];
  return `<section id="${esc(r.operationId)}">
<h3><code>${esc(r.method)} ${esc(r.path)}</code></h3>
<p>Operation <code>${esc(r.operationId)}</code> · tag ${esc(r.tag)} · ${r.auth ? 'API key required' : 'no authentication'}</p>
<p>${esc(r.summary)}</p>
${params.length ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>required</th></tr>${params.map((p) => `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${esc(typeOf(p.schema as Json))}</td><td>${p.required ? 'yes' : 'no'}</td></tr>`).join('')}</table>` : ''}
${body ? `<h4>Request fields</h4><table><tr><th>field</th><th>type</th><th>required</th></tr>${fieldRows(body.schema as Json)}</table>` : ''}
<h4>Statuses</h4><ul>${statuses}</ul>
</section>`;
}

export function docsHtml(base: string): string {
  const doc = openApiDocument(base) as { paths: Record<string, Record<string, Json>> };
  const ops = routeList.map((r) => operationHtml(r, doc.paths[r.path]![r.method.toLowerCase()]!)).join('\n');
  const errors = Object.entries(ERROR_CATALOG)
    .map(([code, e]) => `<tr id="${code}"><td><code>${code}</code></td><td>${e.status}</td><td>${esc(e.when)}</td><td>${esc(e.hint)}</td></tr>`)
    .join('');
  const keys = SEED_KEYS.map((k) => `<tr><td><code>${k.key}</code></td><td>${k.tier}</td><td>${k.apiBalance}</td><td>${esc(k.note)}</td></tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Visual Geolocation API v1 (geo sandbox)</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}code{background:#f4f4f4}</style>
</head><body>
<h1>Visual Geolocation API v1</h1>
<p>Served by the <b>geo sandbox</b> at <code>${esc(base)}</code>. Base path <code>/api/v1</code>; JSON in, JSON out. OpenAPI 3.1: <a href="${esc(base)}/__sandbox/openapi.json">/__sandbox/openapi.json</a>.</p>
<h2>Authentication</h2>
<p><code>Authorization: Bearer &lt;key&gt;</code> or <code>x-api-key: &lt;key&gt;</code> on every endpoint except this page. Missing or unknown key: 401 <code>unauthorized</code>.</p>
<h2>Operations</h2>
${ops}
<h2>Asynchronous submit</h2>
<p><code>async: true</code> answers <b>202</b> with <code>{"success": true, "status": "queued", "job_id": "job_…", "analysis_id": "an_…"}</code>. The spec does not show this body, a polling endpoint or webhook registration: this shape is the sandbox's own. The job finishes after the configured latency, is debited then, and appears in <code>GET /api/v1/analyses</code>.</p>
<h2>Sandbox results</h2>
<p>Honest and deterministic, reasoning marked <code>[sandbox]</code>. An image of the <code>--truth</code> file (recognised by its pixels: its bytes without metadata) is answered by a model of known skill: its true position moved by a seeded error, with a confidence that tracks the error. Else an image whose EXIF GPS reaches the sandbox is placed there; <code>geo</code> removes metadata before upload unless <code>--keep-metadata</code>, so its photos get the synthetic answer, picked from a built-in city list by the image's sha256 with a confidence of 0.2-0.5. Content screening: an image whose pixels (a PNG's decompressed image data) or bytes hold the ASCII marker <code>SANDBOX_CONTENT_BLOCKED</code> gets 422 <code>content_blocked</code>, never charged.</p>
<h2>Errors</h2>
<p>Error bodies carry <code>success, error, code, message, hint, docs, type, title, status, detail, instance</code> and, where named, <code>retry_after, max_effort, max_depth, retryable</code>. Send <code>Accept: application/problem+json</code> for the problem-only form.</p>
<table><tr><th>code</th><th>status</th><th>when</th><th>remedy</th></tr>${errors}</table>
<h2>Limits</h2>
<ul><li>Body ${LIMITS.bodyMaxBytes} bytes; image_b64 ${LIMITS.imageB64MaxChars} characters (20 MB)</li><li>Idempotency-Key ${LIMITS.idempotencyKeyMaxChars} characters</li>
<li>limit ${LIMITS.listLimit.min}-${LIMITS.listLimit.max}, default ${LIMITS.listLimit.default}</li><li>scope.radius_km ${LIMITS.radiusKm.min}-${LIMITS.radiusKm.max}, default ${LIMITS.radiusKm.default}</li>
<li>Requests per window: ${Object.entries(TIER_RATE).map(([t, n]) => `${t} ${n}`).join(', ')} (starter is not given by the spec: 15 chosen)</li>
<li>Credits: ${Object.entries(DEPTH_COST).map(([d, c]) => `depth ${d} ${c}`).join(', ')}; default depth 1</li></ul>
<h2>Sandbox keys</h2>
<table><tr><th>key</th><th>tier</th><th>API credits</th><th>notes</th></tr>${keys}</table>
</body></html>`;
}
