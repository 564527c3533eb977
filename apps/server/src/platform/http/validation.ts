import type { FastifySchemaValidationError } from 'fastify';
import { type Lang, t } from './messages';

/**
 * Turns a zod validation failure into one sentence naming the field, in the request's language.
 * Labels come from the schema's `.meta({ label: { zh, en } })` when present, else the field name.
 */
export function describeValidation(
  lang: Lang,
  errors: FastifySchemaValidationError[],
  labels?: Record<string, { zh: string; en: string }>,
): { field: string; message: string } {
  const first = errors[0];
  const field = (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || 'body';
  const label = labels?.[field]?.[lang] ?? field;
  const issue = { ...(first?.params ?? {}), code: first?.keyword, message: first?.message } as ZodIssueLike;
  return { field, message: messageForIssue(lang, label, issue) };
}

export interface ZodIssueLike {
  code?: string;
  path?: (string | number)[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  input?: unknown;
  message?: string;
}

export function messageForIssue(lang: Lang, label: string, issue: ZodIssueLike | undefined): string {
  if (!issue) return t(lang, 'fieldInvalid', { field: label });
  const empty =
    issue.input === '' || issue.input === null || /received (undefined|null)/.test(issue.message ?? '');
  switch (issue.code) {
    case 'invalid_type':
      return empty ? t(lang, 'fieldRequired', { field: label }) : t(lang, 'fieldInvalid', { field: label });
    case 'too_small':
      if (issue.origin === 'string' && (empty || Number(issue.minimum) === 1))
        return t(lang, 'fieldRequired', { field: label });
      return issue.origin === 'string'
        ? t(lang, 'fieldTooShort', { field: label, min: Number(issue.minimum) })
        : t(lang, 'fieldInvalid', { field: label });
    case 'too_big':
      return issue.origin === 'string'
        ? t(lang, 'fieldTooLong', { field: label, max: Number(issue.maximum) })
        : t(lang, 'fieldInvalid', { field: label });
    case 'invalid_format':
      return t(lang, 'fieldFormat', { field: label });
    case 'custom':
      return issue.message && issue.message !== 'Invalid input'
        ? `${label}: ${issue.message}`
        : t(lang, 'fieldInvalid', { field: label });
    default:
      return t(lang, 'fieldInvalid', { field: label });
  }
}

/** The deepest nesting of arrays and objects a JSON body may have; no request of this API needs more than a few. */
export const JSON_MAX_DEPTH = 64;

export const BODY_TOO_DEEP = {
  zh: `请求内容嵌套层级过深(最多 ${JSON_MAX_DEPTH} 层)`,
  en: `The request body is nested too deeply (at most ${JSON_MAX_DEPTH} levels)`,
};
export const BODY_NOT_JSON = { zh: '请求内容不是有效的 JSON', en: 'The request body is not valid JSON' };

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the characters, before
 * parsing (which, like every later walk over the value, would otherwise recurse once per level).
 */
export function jsonTooDeep(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Where a parsed body or query holds a NUL character (in a value or a key), as the field path
 * (`items.0.name`), or undefined. PostgreSQL text cannot hold one.
 */
export function nulPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : undefined;
  if (!value || typeof value !== 'object') return undefined;
  // every request's query and path pass here: a member's path is written only on the way to a NUL
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    const badKey = k.includes('\u0000');
    if (!badKey && (typeof v === 'string' ? !v.includes('\u0000') : !v || typeof v !== 'object')) continue;
    const at = path ? `${path}.${k}` : k;
    if (badKey) return at.replaceAll('\u0000', '');
    const hit = nulPath(v, at);
    if (hit !== undefined) return hit;
  }
  return undefined;
}
