import type { Text2 } from '@smart/contracts';

/**
 * The workflow service's texts, each written once in both languages with `{name}` placeholders (textOf).
 * What a caller is told is answered in the caller's language (FieldInputError takes a Text2). What is
 * written once and read by users of either language from one column — a line of an instance's timeline,
 * the reason it ended — is stored as its key and answered in the reader's language (stored, shownIn); a
 * notice has a column per language. The deployment
 * check's problems are written where they are found (runtime/inspect.ts), as Text2 values too.
 */
export const FLOW_TEXTS = {
  noFile: { zh: '请选择流程文件', en: 'please choose a process file' },
  notDeployable: { zh: '{file} 不能部署: {reason}', en: '{file} cannot be deployed: {reason}' },
  deploymentRunning: {
    zh: '该部署仍有 {count} 个运行中的流程实例,确认后将一并终止',
    en: '{count} running instance(s) use this deployment; confirm to end them too',
  },
  suspended: { zh: '流程已挂起,不能发起', en: 'The process is suspended and cannot be started' },
  startsByEventOnly: {
    zh: '该流程只由消息或信号发起,不能手动发起',
    en: 'This process is started only by a message or a signal, not by hand',
  },
  calledNotDeployed: {
    zh: '调用活动要调用的流程 {key} 未部署',
    en: 'the process {key} that a call activity calls is not deployed',
  },
  calledByEventOnly: {
    zh: '调用活动要调用的流程 {key} 只由消息或信号发起',
    en: 'the process {key} that a call activity calls is started only by a message or a signal',
  },
  messageStartsMany: {
    zh: '消息 {name} 可发起多个流程({keys}),无法确定发起哪一个',
    en: 'The message {name} starts more than one process ({keys}): which one is not clear',
  },
  taskDue: {
    zh: '任务「{task}」已到期,请尽快办理({process})',
    en: 'The task "{task}" is due: please handle it ({process})',
  },
  notClaimable: {
    zh: '任务已被签收或您无权签收',
    en: 'The task was already claimed or you may not claim it',
  },
  taskGone: { zh: '任务不存在或已被处理', en: 'The task does not exist or was already handled' },
  processEnded: { zh: '流程已结束', en: 'The process has ended' },
  applicantsVariable: {
    zh: '流程变量 {name} 由发起人填写,办理时不能修改',
    en: "The process variable {name} is the applicant's and cannot be changed when handling a task",
  },
  /** the last line of the timeline of an instance ended before its end (stored) */
  endedLine: { zh: '流程终止', en: 'ended' },
  /** why a called instance ends when the call activity that started it no longer waits (stored) */
  callWithdrawn: { zh: '调用它的活动已撤销', en: 'the call activity that started it was withdrawn' },
  /** why a called instance ends when its caller ends (stored, before the caller's own reason) */
  callerEnded: { zh: '调用它的流程已结束', en: 'the process that called it ended' },
  /** why an instance ends when its deployment is removed (stored) */
  deploymentRemoved: { zh: '部署已删除', en: 'deployment removed' },
} as const satisfies Record<string, Text2>;

/** `t` with its placeholders filled; a Text2 value puts in each language's own words. */
export function textOf(t: Text2, vars: Record<string, string | number | Text2> = {}): Text2 {
  const put = (lang: keyof Text2) =>
    Object.entries(vars).reduce(
      (text, [k, v]) => text.replaceAll(`{${k}}`, typeof v === 'object' ? v[lang] : String(v)),
      t[lang],
    );
  return { zh: put('zh'), en: put('en') };
}

/** The texts the service stores (a timeline's line, a reason an instance ended): read in the reader's language. */
type StoredKey = 'endedLine' | 'callWithdrawn' | 'callerEnded' | 'deploymentRemoved';

/**
 * A text written once and read by users of either language from one column (a timeline line, a reason):
 * stored as its key (`§deploymentRemoved`), put in the reader's words when answered (`shownIn`). A reason
 * may mix one with what a user wrote (`§callerEnded: 申请有误`).
 */
export const stored = (key: StoredKey): string => `§${key}`;

const STORED = /§(endedLine|callWithdrawn|callerEnded|deploymentRemoved)\b/g;

/** A stored text in `lang`: each stored key in its words, the rest (what a user wrote) as it is. */
export const shownIn = (text: string, lang: 'zh' | 'en'): string =>
  text.includes('§') ? text.replace(STORED, (_, key: StoredKey) => FLOW_TEXTS[key][lang]) : text;
