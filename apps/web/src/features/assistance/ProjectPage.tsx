/**
 * 帮扶项目: the generic list of projects, with the funds rule the server holds them to checked on the form
 * as well (`spendProblem`, one wording for both ends) and the progress drawn as a bar.
 */
import { assistanceProjectResource, spendProblem } from '@smart/contracts/assistance';
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
      fields={{
        spend: {
          rules: [
            ({ getFieldValue }) => ({
              validator: async (_, v) => {
                const problem = spendProblem(getFieldValue('budget'), v);
                if (problem) throw new Error(problem[currentLanguage()]);
              },
            }),
          ],
        },
      }}
    />
  );
}
