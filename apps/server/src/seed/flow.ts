import { LEAVE_PROCESS_XML } from '../modules/flow/leave-process';
import { flowDefinition, flowDeployment } from '../modules/flow/tables';
import type { Db } from '../platform/db';
import { SEED } from './system';

/** The leave process, deployed for every tenant in category 1 (the `flow` dictionary's 请假流程, remark leave). */
export async function seedFlow(db: Db) {
  const [deployment] = await db
    .insert(flowDeployment)
    .values({ name: '请假流程', category: '1', tenantIds: '', createUser: SEED.adminUserId })
    .returning({ id: flowDeployment.id });
  await db.insert(flowDefinition).values({
    deploymentId: deployment.id,
    processDefinitionId: 'leave:1:seed0001',
    processKey: 'leave',
    name: '请假流程',
    version: 1,
    category: '1',
    tenantIds: '',
    resourceName: 'leave.bpmn20.xml',
    xml: LEAVE_PROCESS_XML,
    createUser: SEED.adminUserId,
  });
}
