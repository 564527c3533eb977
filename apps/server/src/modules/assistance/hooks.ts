import { INFORMATION_STATUS } from '@smart/contracts';
import type { ResourceHooks } from '../../platform/crud/binding';
import { formatDateTime } from '../../platform/format';

/** What differs from the engine's pattern in assistance and care. */

/** The value a write leaves: the record's when it sends the field, else the row's as it was. */
const after = (
  record: Record<string, unknown>,
  original: Record<string, unknown> | undefined,
  name: string,
) => (name in record ? record[name] : original?.[name]);

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** News published without a publishing time is published now. */
const informationHooks: ResourceHooks = {
  beforeWrite(_ctx, record, _mode, _id, original) {
    const published = String(after(record, original, 'publishStatus') ?? '') === INFORMATION_STATUS.published;
    if (published && blank(after(record, original, 'publishTime')))
      record.publishTime = formatDateTime(new Date());
  },
};

/**
 * Every assistance resource's table and hooks, for modules/resources.ts. A project's spend within its budget
 * and a care video's file or address are rules of their definitions (`notAbove`, `requiredWhen`).
 */
export function assistanceHooks(): Record<string, ResourceHooks> {
  return { information: informationHooks };
}
