// Form limits from the server's request models (issue 27): GET /openapi.json once, and each
// form reads the constraints of the body its request sends (maxLength, minimum, maximum,
// exclusiveMinimum) for its route, so the page explains them in its language before
// anything is sent, and a refusal the server still gives (request.invalid) is explained the
// same way rather than shown as pydantic's English. No number is copied here.

import { t } from './i18n.js';

let loading = null;

/** The server's OpenAPI document, fetched once (null if it cannot be had: the server then
 * still refuses bad values, explained by `explainInvalid`). */
export function loadOpenapi() {
  if (!loading) {
    loading = fetch('/openapi.json', { cache: 'no-store' })
      .then(r => (r.ok ? r.json() : null))
      .catch(() => null);
  }
  return loading;
}

function resolve(doc, schema, seen = 0) {
  if (!schema || seen > 20) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop();
    return resolve(doc, doc.components?.schemas?.[name], seen + 1);
  }
  const options = schema.anyOf || schema.oneOf;
  if (options) {
    // A field that may be null (or a string among other kinds): the constrained member.
    const real = options.filter(o => o.type !== 'null');
    const constrained = real.find(o => o.$ref || o.properties || 'maximum' in o || 'minimum' in o ||
      'exclusiveMinimum' in o || 'maxLength' in o) || real[0];
    return resolve(doc, constrained, seen + 1);
  }
  return schema;
}

/**
 * The limits of the JSON body of `method` `path` in OpenAPI document `doc`, by field path
 * ("name", "clock.minutes"): {min, max, above (exclusive minimum), minLength, maxLength,
 * type}. Pure (no fetch), for the unit tests.
 */
export function limitsFrom(doc, method, path) {
  const op = doc?.paths?.[path]?.[method.toLowerCase()];
  const body = op?.requestBody?.content?.['application/json']?.schema;
  const out = {};
  const walk = (schema, prefix, depth) => {
    const s = resolve(doc, schema);
    if (s.properties && depth < 4) {
      for (const [name, sub] of Object.entries(s.properties)) walk(sub, prefix ? `${prefix}.${name}` : name, depth + 1);
      return;
    }
    const lim = {};
    if (typeof s.minimum === 'number') lim.min = s.minimum;
    if (typeof s.maximum === 'number') lim.max = s.maximum;
    if (typeof s.exclusiveMinimum === 'number') lim.above = s.exclusiveMinimum;
    if (typeof s.minLength === 'number') lim.minLength = s.minLength;
    if (typeof s.maxLength === 'number') lim.maxLength = s.maxLength;
    if (s.type) lim.type = s.type;
    if (prefix) out[prefix] = lim;
  };
  if (body) walk(body, '', 0);
  return out;
}

/** The limits of `method` `path`'s body (after loading /openapi.json); {} without it. */
export async function formLimits(method, path) {
  const doc = await loadOpenapi();
  return doc ? limitsFrom(doc, method, path) : {};
}

/** What the field `label` accepts, as one sentence in the page's language. */
export function limitText(label, lim = {}) {
  const field = label;
  if (lim.maxLength !== undefined) {
    return lim.minLength > 1
      ? t('limit.lengthRange', { field, min: lim.minLength, n: lim.maxLength })
      : t('limit.length', { field, n: lim.maxLength });
  }
  if (lim.above !== undefined && lim.max !== undefined) return t('limit.aboveTo', { field, min: lim.above, max: lim.max });
  if (lim.min !== undefined && lim.max !== undefined) return t('limit.range', { field, min: lim.min, max: lim.max });
  if (lim.max !== undefined) return t('limit.max', { field, max: lim.max });
  if (lim.above !== undefined) return t('limit.above', { field, min: lim.above });
  if (lim.min !== undefined) return t('limit.min', { field, min: lim.min });
  if (lim.minLength) return t('limit.required', { field });
  return t('limit.invalid', { field });
}

/**
 * Whether `value` (a form input's text) fits `lim`: null if it does, else the sentence that
 * says what fits. Numbers: `lim.type` 'number' or 'integer'. An empty optional field fits.
 */
export function checkValue(value, lim = {}, label = '') {
  const text = String(value ?? '');
  if (lim.type === 'number' || lim.type === 'integer') {
    if (text.trim() === '') return null;
    const x = Number(text);
    if (!Number.isFinite(x) || (lim.type === 'integer' && !Number.isInteger(x))) {
      return t('limit.number', { field: label });
    }
    if ((lim.min !== undefined && x < lim.min) || (lim.max !== undefined && x > lim.max) ||
        (lim.above !== undefined && x <= lim.above)) return limitText(label, lim);
    return null;
  }
  const n = [...text].length;
  if (n === 0 && lim.minLength > 0) return t('limit.required', { field: label });
  if ((lim.minLength !== undefined && n < lim.minLength) || (lim.maxLength !== undefined && n > lim.maxLength)) {
    return limitText(label, lim);
  }
  return null;
}

/**
 * A request.invalid refusal explained in the page's language: the first field the server
 * names, with its label from `labels` (field path -> label) and its limits from `lims`;
 * null for any other error (the caller shows its usual message).
 */
export function explainInvalid(e, labels = {}, lims = {}) {
  if (!e || e.code !== 'request.invalid') return null;
  for (const err of e.errors || []) {
    const path = (err.loc || []).filter(p => p !== 'body' && typeof p === 'string').join('.');
    for (let p = path; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
      if (labels[p]) return lims[p] ? limitText(labels[p], lims[p]) : t('limit.invalid', { field: labels[p] });
    }
  }
  return t('err.badRequest');
}
