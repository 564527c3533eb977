/**
 * 电站收益: the generic list of the monthly profits, with 分配明细表 on each row — the households' shares
 * and amounts of that month as Excel (`powerStationProfit/statement/export`), whose total is the income; a
 * station without shares is told so instead of a statement that would not add up.
 */
import './i18n';
import { powerStationProfitResource } from '@smart/contracts/power';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { downloadFile } from '../../platform/crud/transfer';

const API = '/api/dfem-hope-power/powerStationProfit';

/** a profit row's distribution (what each household's share of its income comes to) */
const sharesOf = (row: Row): unknown[] => {
  try {
    const d = typeof row.distribution === 'string' ? JSON.parse(row.distribution || '[]') : row.distribution;
    return Array.isArray(d) ? d : [];
  } catch {
    return [];
  }
};

export default function ProfitPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const statement = async (row: Row) => {
    // nobody to distribute the income to: say so before asking for a statement that cannot add up
    if (Number(row.income) > 0 && !sharesOf(row).length) {
      modal.warning({ title: t('power.statement'), content: t('power.noShares') });
      return;
    }
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
