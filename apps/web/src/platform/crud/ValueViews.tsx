/** How numbers with units, JSON and video addresses read in table cells and the view dialog. */
import type { FieldDef } from '@smart/contracts/core';
import { Progress, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { EMPTY, isEmptyValue, isPlayableVideo, numberText, prettyJson } from './values';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/** A number with its unit (`12.5 kW`); an amount grouped with two decimals (`1,234.50 元`). */
export function NumberText({
  field,
  value,
  withUnit = true,
}: {
  field: FieldDef;
  value: unknown;
  /** false in a list's cell: its column's header says the unit (`columnTitle`) */
  withUnit?: boolean;
}) {
  useTranslation(); // read again when the language changes (the unit's words)
  if (isEmptyValue(value)) return <>{EMPTY}</>;
  if (field.percent) return <PercentBar value={value} />;
  return (
    <span style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {numberText(field, value, currentLanguage(), withUnit)}
    </span>
  );
}

/** A share done (a field declared `percent`, 0–100) as a small progress bar with its %. */
export function PercentBar({ value }: { value: unknown }) {
  const n = Math.max(0, Math.min(100, Number(value)));
  if (!Number.isFinite(n)) return <>{String(value)}</>;
  return (
    <Progress
      percent={n}
      size="small"
      style={{ width: 96, margin: 0 }}
      // the figure always, also when done (antd would show a tick instead)
      format={(p) => `${p}%`}
      // done is told by the bar's green, the figure stays in the text colour (antd's green text is 2.3:1)
      status="normal"
      strokeColor={n >= 100 ? '#52c41a' : undefined}
      aria-label={`${n}%`}
    />
  );
}

/** JSON in a cell: one line, cut with an ellipsis (the whole text is its tooltip). */
export function JsonCell({ value }: { value: unknown }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (
    <code
      title={text}
      style={{
        fontFamily: MONO,
        fontSize: 12,
        display: 'inline-block',
        maxWidth: 240,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
        verticalAlign: 'bottom',
      }}
    >
      {text}
    </code>
  );
}

/** JSON in the view dialog: indented, scrolling when long (focusable so that the keyboard scrolls it too). */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <pre
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard to scroll it
      tabIndex={0}
      title={label}
      style={{
        fontFamily: MONO,
        fontSize: 12,
        margin: 0,
        maxHeight: 320,
        overflow: 'auto',
        whiteSpace: 'pre',
        background: '#fafafa',
        padding: 8,
        borderRadius: 4,
      }}
    >
      {prettyJson(value)}
    </pre>
  );
}

/** A video's address as a link that opens it in a new tab. */
export function VideoLink({ value }: { value: unknown }) {
  const href = String(value);
  // only the protocols the kind allows become a link (rtsp / rtmp open in the system's player)
  if (!/^(?:https?|rtsp|rtmp):\/\//i.test(href)) return <span>{href}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
      {href}
    </a>
  );
}

/** The view dialog's video: played in place when the browser can (an .mp4 / .webm file), else its link. */
export function VideoView({ value, label }: { value: unknown; label: string }) {
  if (!isPlayableVideo(value)) return <VideoLink value={value} />;
  const src = String(value);
  return (
    <div>
      {/* biome-ignore lint/a11y/useMediaCaption: recordings of cameras and platforms come without captions */}
      <video
        controls
        preload="metadata"
        src={src}
        aria-label={label}
        style={{ maxWidth: '100%', maxHeight: 320 }}
      >
        <VideoLink value={value} />
      </video>
      <div>
        <VideoLink value={value} />
      </div>
    </div>
  );
}

const PODIUM = ['gold', 'blue', 'green'];

/**
 * A place in a ranking, as the server answers it (standard competition ranking: ties share a place and the
 * next place skips, 1, 1, 3): the first three as coloured tags, a shared place marked 并列 (`crud.tied`:
 * the screens that show a ranking load the list page's strings with CrudPage).
 */
export function RankCell({ rank, tied }: { rank: unknown; tied?: unknown }) {
  const { t } = useTranslation();
  const n = Number(rank);
  if (isEmptyValue(rank) || !Number.isFinite(n)) return <>{EMPTY}</>;
  return (
    <span data-rank={n} data-tied={tied ? 'true' : undefined} style={{ whiteSpace: 'nowrap' }}>
      {n <= 3 ? <Tag color={PODIUM[n - 1]}>{n}</Tag> : n}
      {tied ? (
        <Tag color="default" style={{ marginInlineStart: 4 }}>
          {t('crud.tied')}
        </Tag>
      ) : null}
    </span>
  );
}
