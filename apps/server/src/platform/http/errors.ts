import type { MessageKey } from './messages';
import { t } from './messages';

/** An error the client is meant to see: HTTP status equals the envelope code (api-contract §Envelope). */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429 | 500,
    readonly key: MessageKey,
    readonly vars?: Record<string, string | number>,
  ) {
    super(key);
  }
}

export const badRequest = (key: MessageKey = 'badRequest', vars?: Record<string, string | number>) =>
  new ApiError(400, key, vars);
export const unauthorized = (key: MessageKey = 'unauthorized') => new ApiError(401, key);
export const forbidden = (key: MessageKey = 'forbidden') => new ApiError(403, key);
export const notFound = () => new ApiError(404, 'notFound');

/** A failure of the token endpoint: flat body `{ error_code, error_description }` as OAuth clients expect. */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 429,
    readonly key: MessageKey,
    readonly vars?: Record<string, string | number>,
  ) {
    super(key);
  }
}

/** Bad input in one field: 400 with `data.field` and the message in the request's language. */
export class FieldInputError extends Error {
  constructor(
    readonly field: string,
    readonly text: { zh: string; en: string },
  ) {
    super(text.en);
  }
}

/** A 400 naming a query or body field whose value is invalid, in both languages. */
export function invalidField(
  field: string,
  key: 'fieldInvalid' | 'unknownFilter' | 'unknownSort' = 'fieldInvalid',
) {
  return new FieldInputError(field, { zh: t('zh', key, { field }), en: t('en', key, { field }) });
}

/** Bad rows of an import: 400 listing every row with its field and reason; nothing was written. */
export class RowsInputError extends Error {
  constructor(readonly rows: { row: number; field: string; message: { zh: string; en: string } }[]) {
    super('bad rows');
  }
}
