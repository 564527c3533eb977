/**
 * A list's header row stays in view while the page area scrolls. antd's own `sticky` splits the table in
 * two (the header in a table of its own, apart from its cells for a screen reader and for anyone finding
 * a cell by its column); here the one table's header row is moved down instead, as far as the page area's
 * top edge and never past the table's last row.
 */
import { type RefObject, useEffect } from 'react';

/** How far the header row moves down: the part of the table scrolled above the area's top, within the table. */
export function headerShift(
  areaTop: number,
  tableTop: number,
  tableHeight: number,
  headHeight: number,
): number {
  return Math.round(Math.max(0, Math.min(areaTop - tableTop, tableHeight - headHeight)));
}

export function useStickyHeader(box: RefObject<HTMLElement | null>, scroller: HTMLElement | null): void {
  useEffect(() => {
    if (!scroller) return;
    let frame = 0;
    const place = () => {
      frame = 0;
      const head = box.current?.querySelector<HTMLElement>('.ant-table-thead');
      const table = head?.closest('table');
      if (!head || !table) return;
      const t = table.getBoundingClientRect();
      const shift = headerShift(scroller.getBoundingClientRect().top, t.top, t.height, head.offsetHeight);
      // above the rows and the fixed columns' cells (antd gives those up to twice the columns' count + 2)
      Object.assign(
        head.style,
        shift
          ? {
              transform: `translateY(${shift}px)`,
              position: 'relative',
              zIndex: 'calc(var(--columns-count, 10) * 2 + 4)',
            }
          : { transform: '', position: '', zIndex: '' },
      );
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(place);
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [box, scroller]);
}
