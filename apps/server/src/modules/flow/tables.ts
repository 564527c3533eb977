import { index, integer, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { baseColumns, id, idRef, tenantColumn } from '../../platform/db/columns';

/** The workflow engine's tables: models, deployments and definitions; instances, tasks and history. */

export const flowModel = pgTable('flow_model', {
  id: id(),
  tenantId: tenantColumn(),
  modelKey: varchar('model_key', { length: 64 }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  category: varchar('category', { length: 32 }),
  description: varchar('description', { length: 1000 }),
  xml: text('xml'),
  version: integer('version').notNull().default(1),
  ...baseColumns(),
});

export const flowDeployment = pgTable('flow_deployment', {
  id: id(),
  name: varchar('name', { length: 255 }).notNull(),
  category: varchar('category', { length: 32 }),
  /** '' = every tenant (通用); else the comma list of tenant ids it is deployed for (定制) */
  tenantIds: varchar('tenant_ids', { length: 2000 }).notNull().default(''),
  ...baseColumns(),
});

export const flowDefinition = pgTable(
  'flow_definition',
  {
    id: id(),
    deploymentId: idRef('deployment_id').notNull(),
    /** `<key>:<version>:<id>` as BladeX (Flowable) consoles expect */
    processDefinitionId: varchar('process_definition_id', { length: 128 }).notNull(),
    processKey: varchar('process_key', { length: 64 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    version: integer('version').notNull(),
    category: varchar('category', { length: 32 }),
    tenantIds: varchar('tenant_ids', { length: 2000 }).notNull().default(''),
    resourceName: varchar('resource_name', { length: 255 }),
    xml: text('xml').notNull(),
    /** 0 active, 1 suspended: a suspended definition starts nothing */
    suspended: integer('suspended').notNull().default(0),
    ...baseColumns(),
  },
  (t) => [
    uniqueIndex('flow_definition_pdid_uq').on(t.processDefinitionId),
    index('flow_definition_key_idx').on(t.processKey),
  ],
);

export const flowInstance = pgTable(
  'flow_instance',
  {
    id: id(),
    tenantId: tenantColumn(),
    processInstanceId: varchar('process_instance_id', { length: 64 }).notNull(),
    definitionId: idRef('definition_id').notNull(),
    processDefinitionId: varchar('process_definition_id', { length: 128 }).notNull(),
    processKey: varchar('process_key', { length: 64 }).notNull(),
    processName: varchar('process_name', { length: 255 }).notNull(),
    category: varchar('category', { length: 32 }),
    businessId: varchar('business_id', { length: 64 }),
    startUser: idRef('start_user').notNull(),
    startTime: timestamp('start_time', { withTimezone: true }).notNull().defaultNow(),
    endTime: timestamp('end_time', { withTimezone: true }),
    /** running, finished, deleted */
    state: varchar('state', { length: 16 }).notNull().default('running'),
    deleteReason: varchar('delete_reason', { length: 500 }),
    /** bpmn-engine's saved state at the last wait: a restart resumes from here */
    engineState: text('engine_state'),
    variables: text('variables'),
    ...baseColumns(),
  },
  (t) => [
    uniqueIndex('flow_instance_piid_uq').on(t.processInstanceId),
    index('flow_instance_starter_idx').on(t.tenantId, t.startUser),
  ],
);

export const flowTask = pgTable(
  'flow_task',
  {
    id: id(),
    tenantId: tenantColumn(),
    processInstanceId: varchar('process_instance_id', { length: 64 }).notNull(),
    processDefinitionId: varchar('process_definition_id', { length: 128 }).notNull(),
    /** the engine's execution id of the waiting activity */
    executionId: varchar('execution_id', { length: 128 }).notNull(),
    taskDefinitionKey: varchar('task_definition_key', { length: 128 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    assignee: idRef('assignee'),
    candidateUsers: varchar('candidate_users', { length: 2000 }),
    candidateGroups: varchar('candidate_groups', { length: 2000 }),
    /** 0 waiting, 1 completed, 2 cancelled */
    status: integer('status').notNull().default(0),
    claimTime: timestamp('claim_time', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    flag: varchar('flag', { length: 16 }),
    comment: varchar('comment', { length: 1000 }),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('flow_task_assignee_idx').on(t.tenantId, t.assignee, t.status, t.createTime),
    index('flow_task_instance_idx').on(t.processInstanceId),
  ],
);

export const flowHistory = pgTable(
  'flow_history',
  {
    id: id(),
    tenantId: tenantColumn(),
    processInstanceId: varchar('process_instance_id', { length: 64 }).notNull(),
    executionId: varchar('execution_id', { length: 128 }).notNull(),
    activityId: varchar('activity_id', { length: 128 }).notNull(),
    activityName: varchar('activity_name', { length: 255 }),
    activityType: varchar('activity_type', { length: 64 }).notNull(),
    assignee: idRef('assignee'),
    comment: varchar('comment', { length: 1000 }),
    startTime: timestamp('start_time', { withTimezone: true }).notNull().defaultNow(),
    endTime: timestamp('end_time', { withTimezone: true }),
  },
  (t) => [index('flow_history_instance_idx').on(t.processInstanceId, t.startTime)],
);

/** The seeded leave process's business rows (the desk's leave form). */
export const processLeave = pgTable('blade_process_leave', {
  id: id(),
  tenantId: tenantColumn(),
  processDefinitionId: varchar('process_definition_id', { length: 128 }).notNull(),
  processInstanceId: varchar('process_instance_id', { length: 64 }),
  startTime: timestamp('start_time', { withTimezone: true }).notNull(),
  endTime: timestamp('end_time', { withTimezone: true }).notNull(),
  reason: varchar('reason', { length: 1000 }).notNull(),
  taskUser: idRef('task_user').notNull(),
  applyTime: timestamp('apply_time', { withTimezone: true }).notNull().defaultNow(),
  ...baseColumns(),
});

/**
 * What a process waits on besides its user tasks, one row each: a timer (`timer`, or `start-timer` for a
 * definition's timer start event), a message or signal catch (`message`, `signal`), a call activity's
 * child instance (`call`) and a service task's network call (`action`, run after the commit: actions.ts).
 * Timers are fired by whichever server's poller claims the row first (`fired_at` set in the same
 * transaction that runs the instance), so each fires exactly once.
 */
export const flowWait = pgTable(
  'flow_wait',
  {
    id: id(),
    tenantId: tenantColumn(),
    /** timer, start-timer, message, signal, call, action */
    kind: varchar('kind', { length: 16 }).notNull(),
    /** the waiting instance (none for a start timer) */
    processInstanceId: varchar('process_instance_id', { length: 64 }),
    /** a start timer's definition (flow_definition.id) */
    definitionId: idRef('definition_id'),
    /** the engine's execution id of the waiting element */
    executionId: varchar('execution_id', { length: 128 }),
    activityId: varchar('activity_id', { length: 128 }),
    /** the message's or signal's name; a call's process key */
    name: varchar('name', { length: 255 }),
    /** a call activity's child instance */
    childInstanceId: varchar('child_instance_id', { length: 64 }),
    /** when a timer is due */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** a start timer's cycle: the firings still to come after this one (-1 for ever); an action's attempts */
    repeat: integer('repeat'),
    /**
     * the time expression a start timer came from (its cycle is computed again from it); an action's last
     * failure
     */
    spec: varchar('spec', { length: 255 }),
    /** an action's request (JSON), written with the state it waits in: it runs outside the transaction */
    payload: text('payload'),
    /** the server that fired it */
    claimedBy: varchar('claimed_by', { length: 64 }),
    firedAt: timestamp('fired_at', { withTimezone: true }),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('flow_wait_due_idx').on(t.kind, t.firedAt, t.dueAt),
    index('flow_wait_instance_idx').on(t.processInstanceId),
    index('flow_wait_name_idx').on(t.tenantId, t.kind, t.name),
    index('flow_wait_child_idx').on(t.childInstanceId),
  ],
);

/** Notices the workflow sends a user (a task's reminder or escalation, a service task's notice). */
export const flowNotice = pgTable(
  'flow_notice',
  {
    id: id(),
    tenantId: tenantColumn(),
    userId: idRef('user_id').notNull(),
    processInstanceId: varchar('process_instance_id', { length: 64 }).notNull(),
    /** the task it is about, if any */
    taskId: idRef('task_id'),
    /** in Chinese and in English: the list answers the caller's language */
    title: varchar('title', { length: 255 }).notNull(),
    titleEn: varchar('title_en', { length: 255 }).notNull(),
    readTime: timestamp('read_time', { withTimezone: true }),
    createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('flow_notice_user_idx').on(t.tenantId, t.userId, t.createTime)],
);
