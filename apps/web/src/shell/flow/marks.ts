/** One entry of a process's history (spec §3 flow history item). */
export interface FlowHistoryItem {
  historyActivityId: string;
  historyActivityType: string;
  endTime?: string | null;
}

export type FlowMark = 'flow-finished' | 'flow-active' | 'flow-sequence';

/** How an element of the history is drawn (spec §4 flow node display). */
export function markOf(item: FlowHistoryItem): FlowMark {
  if (item.historyActivityType === 'sequenceFlow') return 'flow-sequence';
  return item.endTime ? 'flow-finished' : 'flow-active';
}

/**
 * The mark of each element id. An element visited several times (a loop) takes its latest state: active
 * wins over finished.
 */
export function marksOf(flow: readonly FlowHistoryItem[]): Map<string, FlowMark> {
  const marks = new Map<string, FlowMark>();
  for (const item of flow) {
    if (!item.historyActivityId) continue;
    const mark = markOf(item);
    if (marks.get(item.historyActivityId) !== 'flow-active') marks.set(item.historyActivityId, mark);
  }
  return marks;
}
