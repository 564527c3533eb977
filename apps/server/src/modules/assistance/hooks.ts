import { INFORMATION_STATUS, spendProblem } from '@smart/contracts';
import type { ResourceHooks } from '../../platform/crud/binding';
import { formatDateTime } from '../../platform/format';
import { FieldInputError } from '../../platform/http/errors';

/** What differs from the engine's pattern in assistance and care. */

/** The value a write leaves: the record's when it sends the field, else the row's as it was. */
const after = (
  record: Record<string, unknown>,
  original: Record<string, unknown> | undefined,
  name: string,
) => (name in record ? record[name] : original?.[name]);

/** A project spends no more than its budget (on update, against whichever of the two is unchanged). */
const projectHooks: ResourceHooks = {
  beforeWrite(_ctx, record, _mode, _id, original) {
    const problem = spendProblem(after(record, original, 'budget'), after(record, original, 'spend'));
    if (problem) throw new FieldInputError('spend', problem);
  },
};

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** A care video plays something: an uploaded file or an address. */
const videoHooks: ResourceHooks = {
  beforeWrite(_ctx, record, _mode, _id, original) {
    if (blank(after(record, original, 'videoFile')) && blank(after(record, original, 'videoUrl')))
      throw new FieldInputError('videoFile', {
        zh: '请上传视频文件或填写视频地址',
        en: 'Upload a video file or enter a video address',
      });
  },
};

/** News published without a publishing time is published now. */
const informationHooks: ResourceHooks = {
  beforeWrite(_ctx, record, _mode, _id, original) {
    const published = String(after(record, original, 'publishStatus') ?? '') === INFORMATION_STATUS.published;
    if (published && blank(after(record, original, 'publishTime')))
      record.publishTime = formatDateTime(new Date());
  },
};

/** Every assistance resource's table and hooks, for modules/resources.ts. */
export function assistanceHooks(): Record<string, ResourceHooks> {
  return { assistanceProject: projectHooks, information: informationHooks, careVideo: videoHooks };
}
