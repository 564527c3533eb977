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
