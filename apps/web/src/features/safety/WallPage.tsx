/**
 * 实时视频: a wall of 1, 4 or 9 tiles, each showing the live stream of the camera picked for it (a
 * searchable select), or filled from the camera list (online cameras first). The cameras are the ones the
 * caller may see (GET camera/wall); every tile plays on its own (VideoTile), so one stream that fails
 * never holds up the others.
 */
import './i18n';
import type { WallCamera } from '@smart/contracts/safety';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Segmented } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../../platform/http/client';
import { VideoTile } from './VideoTile';

const LAYOUTS = [1, 4, 9] as const;
type Layout = (typeof LAYOUTS)[number];
const MAX_TILES = 9;
/** a tile's height by layout: the wall fills about one screen */
const TILE_HEIGHT: Record<Layout, string> = {
  1: 'max(360px, 68vh)',
  4: 'max(240px, 34vh)',
  9: 'max(180px, 23vh)',
};

export default function WallPage() {
  const { t } = useTranslation();
  const [layout, setLayout] = useState<Layout>(4);
  const [picked, setPicked] = useState<(string | undefined)[]>(() => Array(MAX_TILES).fill(undefined));
  const { data: cameras = [], isFetched } = useQuery({
    queryKey: ['crud', 'camera', 'wall'],
    queryFn: () => getData<WallCamera[]>('/api/dfem-hope-manage/camera/wall'),
    refetchOnMount: 'always',
  });
  const byId = useMemo(() => new Map(cameras.map((c) => [c.id, c])), [cameras]);
  const columns = Math.sqrt(layout);

  const fill = () => {
    const order = [...cameras].sort((a, b) => b.online - a.online);
    setPicked(Array.from({ length: MAX_TILES }, (_, i) => (i < layout ? order[i]?.id : undefined)));
  };
  const pick = (i: number, id: string | undefined) => setPicked((p) => p.map((x, j) => (j === i ? id : x)));

  return (
    <Card
      variant="borderless"
      title={t('safety.wallTitle')}
      extra={
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Segmented<Layout>
            aria-label={t('safety.layout')}
            value={layout}
            onChange={setLayout}
            options={LAYOUTS.map((n) => ({ value: n, label: t('safety.layoutN', { n }) }))}
          />
          <Button onClick={fill} disabled={!cameras.length}>
            {t('safety.fill')}
          </Button>
          <Button onClick={() => setPicked(Array(MAX_TILES).fill(undefined))}>{t('safety.clearAll')}</Button>
        </div>
      }
    >
      {isFetched && !cameras.length ? (
        <Empty description={t('safety.noCameras')} />
      ) : (
        // antd's grid (the chunks it shares with the other screens stay whole: no extra file on first load)
        <Row gutter={[8, 8]}>
          {Array.from({ length: layout }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a tile is its place on the wall
            <Col key={i} span={24 / columns} style={{ height: TILE_HEIGHT[layout], display: 'flex' }}>
              <VideoTile
                index={i}
                cameras={cameras}
                camera={picked[i] ? byId.get(picked[i]) : undefined}
                onPick={(id) => pick(i, id)}
              />
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}
