/**
 * 帮扶项目: the generic list of projects (the funds rule, spend within budget, is the definition's
 * `notAbove`: the form checks it as the server does) and the progress drawn as a bar.
 */
import { assistanceProjectResource } from '@smart/contracts/assistance';
import { Progress } from 'antd';
import { CrudPage } from '../../platform/crud/CrudPage';
import { currentLanguage } from '../../platform/i18n';

export default function ProjectPage() {
  return (
    <CrudPage
      def={assistanceProjectResource}
      columns={{
        render: {
          progress: (v) => (
            <Progress
              percent={Number(v ?? 0)}
              size="small"
              style={{ minWidth: 100 }}
              aria-label={`${assistanceProjectResource.fields.find((f) => f.name === 'progress')!.label[currentLanguage()]} ${Number(v ?? 0)}%`}
            />
          ),
        },
      }}
    />
  );
}
