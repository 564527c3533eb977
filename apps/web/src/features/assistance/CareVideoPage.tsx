/**
 * 关爱视频: the generic list of care videos with a 播放 / Play button per row that opens the player (the
 * browser's own `<video controls>`: an uploaded MP4/WebM file, else the video's address).
 */
import './i18n';
import { careVideoResource } from '@smart/contracts/assistance';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import type { Row } from '../../platform/crud/types';
import { VideoPlayer } from '../../platform/crud/VideoField';

export default function CareVideoPage() {
  const { t } = useTranslation();
  const [playing, setPlaying] = useState<Row | null>(null);
  const title = playing ? String(playing.title ?? '') : '';
  return (
    <>
      <CrudPage
        def={careVideoResource}
        rowActions={(row) => (
          <Button
            type="link"
            size="small"
            onClick={() => setPlaying(row)}
            aria-label={`${t('assistance.play')} ${String(row.title ?? '')}`}
          >
            {t('assistance.play')}
          </Button>
        )}
      />
      <Modal
        open={!!playing}
        title={t('assistance.playTitle', { title })}
        onCancel={() => setPlaying(null)}
        footer={<Button onClick={() => setPlaying(null)}>{t('common.close')}</Button>}
        width={760}
        destroyOnHidden
      >
        {playing && <VideoPlayer sources={[playing.videoFile, playing.videoUrl]} label={title} autoPlay />}
      </Modal>
    </>
  );
}
