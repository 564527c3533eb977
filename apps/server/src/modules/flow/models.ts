import { flowModelResource } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { ResourceHooks } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { deploy } from './service/deploy';
import { platformOnly, tenantList } from './shared';
import { flowModel } from './tables';

/**
 * Models (模型管理): BPMN diagrams designed in the browser, saved, then deployed as definitions. The list,
 * detail, submit and remove are the resource engine's (definition: `flowModelResource`); this binding counts
 * the version up when the diagram changes and adds deploy.
 */

/**
 * The data-scope resource code of flow models (a resource's code is its key): a data scope with this code,
 * granted to a role, narrows the models that role reads and writes.
 */
export const FLOW_MODEL_SCOPE = flowModelResource.key;

export const flowModelHooks: ResourceHooks = {
  // answered beside the fields: written by the server only
  beside: { version: flowModel.version },
  beforeWrite(_ctx, record, mode, _id, original) {
    // a saved diagram is a new version of the model
    if (mode === 'update' && record.xml !== undefined && original)
      record.version = Number(original.version ?? 1) + 1;
  },
  endpoints: [
    /** Deploys a model: for every tenant (通用, no tenantIds) or for the chosen ones (定制). Platform tenant only. */
    endpoint({
      method: 'POST',
      path: 'deploy',
      codeSuffix: '_deploy',
      query: z.object({}),
      body: z.object({ modelId: idString, category: z.string().min(1).max(32), tenantIds: tenantList }),
      async handler({ ctx, resource, scope, body }) {
        platformOnly(ctx);
        const [m] = await resource.db
          .select({ name: flowModel.name, modelKey: flowModel.modelKey, xml: flowModel.xml })
          .from(flowModel)
          .where(and(eq(flowModel.id, body.modelId), scope))
          .limit(1);
        if (!m) throw notFound();
        if (!m.xml)
          throw new FieldInputError('modelId', {
            zh: '模型还没有设计流程图',
            en: 'The model has no diagram yet',
          });
        const result = await deploy(resource.db, ctx, {
          name: m.name,
          category: body.category,
          tenantIds: body.tenantIds,
          files: [{ name: `${m.modelKey}.bpmn20.xml`, xml: m.xml }],
        });
        return {
          deploymentId: result.deploymentId,
          processDefinitionId: result.definitions[0].processDefinitionId,
        };
      },
    }),
  ],
};
