import type { FastifyInstance } from 'fastify';
import { deploymentRoutes } from './deployments';
import { diagramRoutes } from './diagrams';
import { eventRoutes } from './events';
import { followRoutes } from './follow';
import { workRoutes } from './work';

/**
 * The workflow engine's routes under /api/dfem-flow, one file per screen family. 模型管理 is the resource
 * engine's (models.ts is its binding).
 */

// what desk/leave.ts uses of the flow routes (imported from here before the split)
export { readableInstance } from './shared';
export { forgetWorkCounts } from './work';

export async function flowRoutes(app: FastifyInstance) {
  await workRoutes(app); // 工作台: start, claim, to-do, sent, done
  await deploymentRoutes(app); // 部署管理
  await followRoutes(app); // 流程跟踪
  await diagramRoutes(app); // diagrams and timelines
  await eventRoutes(app); // messages, signals, timers, notices
}
