/**
 * Initial passwords the server generated (a password reset, a new tenant's administrator), shown once:
 * the server keeps only their hashes, so once this dialog closes nobody can see them again.
 */
import './i18n';
import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface IssuedPassword {
  account: string;
  password: string;
}

async function copy(text: string, done: () => void) {
  try {
    await navigator.clipboard.writeText(text);
    done();
  } catch {
    /* no clipboard (insecure context): the text stays selectable */
  }
}

export function OneTimePasswords({
  issued,
  intro,
  onClose,
}: {
  issued: IssuedPassword[];
  /** a line above the table (e.g. which tenant's administrator) */
  intro?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copied = () => message.success(t('common.copied'));
  return (
    <Modal
      open
      title={t('sys.once.title')}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={[
        issued.length > 1 && (
          <Button
            key="all"
            icon={<CopyOutlined />}
            onClick={() => copy(issued.map((p) => `${p.account}\t${p.password}`).join('\n'), copied)}
          >
            {t('sys.once.copyAll')}
          </Button>
        ),
        <Button key="close" type="primary" onClick={onClose}>
          {t('common.close')}
        </Button>,
      ]}
    >
      {intro && <p>{intro}</p>}
      <Typography.Paragraph type="warning">{t('sys.once.hint')}</Typography.Paragraph>
      <Table<IssuedPassword>
        rowKey="account"
        size="small"
        pagination={false}
        dataSource={issued}
        columns={[
          { title: t('sys.once.account'), dataIndex: 'account' },
          {
            title: t('sys.once.password'),
            dataIndex: 'password',
            render: (password: string, row) => (
              <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
                <Typography.Text
                  code
                  copyable={false}
                  aria-label={`${row.account} ${t('sys.once.password')}`}
                >
                  {password}
                </Typography.Text>
                <Button
                  size="small"
                  type="text"
                  icon={<CopyOutlined />}
                  aria-label={`${t('common.copy')} ${row.account}`}
                  onClick={() => copy(password, copied)}
                />
              </span>
            ),
          },
        ]}
      />
    </Modal>
  );
}
