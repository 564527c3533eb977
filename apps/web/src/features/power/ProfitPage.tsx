/**
 * 电站收益: the generic list of the monthly profits, with 分配明细表 on each row — the households' shares
 * and amounts of that month as Excel (`powerStationProfit/statement/export`), whose total is the income.
 */
import './i18n';
import { powerStationProfitResource } from '@smart/contracts/power';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { downloadFile } from '../../platform/crud/transfer';

const API = '/api/dfem-hope-power/powerStationProfit';

export default function ProfitPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const statement = async (row: Row) => {
    try {
      await downloadFile(
        `${API}/statement/export`,
        { id: String(row.id) },
        `${String(row.stationName ?? '')}-${String(row.month)}-${t('power.statementFile')}.xlsx`,
      );
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  return (
    <CrudPage
      def={powerStationProfitResource}
      rowActions={(row) => (
        <Button type="link" size="small" onClick={() => void statement(row)}>
          {t('power.statement')}
        </Button>
      )}
    />
  );
}
