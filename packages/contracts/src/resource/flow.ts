import { SYSTEM_DICT } from './dicts';
import type { ResourceDef } from './types';

/**
 * Workflow models (模型管理): BPMN diagrams designed in the browser, saved, then deployed as definitions.
 * Served by the resource engine (list, detail, submit, remove); the flow module's binding
 * (apps/server/src/modules/flow/models.ts) counts the version up when the diagram changes and adds deploy.
 * The screen is its own (features/flow/ModelPage) with the diagram designer.
 */
export const flowModelResource: ResourceDef = {
  key: 'flowModel',
  label: { zh: '模型管理', en: 'Models' },
  service: 'dfem-flow',
  path: 'model',
  route: '/flow/model',
  permission: 'flow_model',
  tenant: true,
  // no view button: the list shows a model, the designer edits it
  view: false,
  defaultSort: { field: 'updateTime', desc: true },
  fields: [
    {
      name: 'modelKey',
      label: { zh: '模型标识', en: 'Model key' },
      type: 'text',
      required: true,
      max: 64,
      pattern: '[A-Za-z_][A-Za-z0-9_-]*',
      patternMessage: {
        zh: '模型标识以字母或下划线开头,只能包含字母、数字、下划线和连字符',
        en: 'The model key starts with a letter or an underscore and holds letters, digits, underscores and hyphens only',
      },
      search: 'like',
    },
    {
      name: 'name',
      label: { zh: '模型名称', en: 'Model name' },
      type: 'text',
      required: true,
      max: 255,
      search: 'like',
    },
    {
      name: 'category',
      label: { zh: '流程类型', en: 'Process type' },
      type: 'dict',
      dict: SYSTEM_DICT.flow,
      max: 32,
    },
    { name: 'description', label: { zh: '模型描述', en: 'Description' }, type: 'textarea', max: 1000 },
    // the diagram: edited in the designer, read by the detail, never listed
    {
      name: 'xml',
      label: { zh: '流程图', en: 'Diagram' },
      type: 'textarea',
      max: 2_000_000,
      list: false,
      detailOnly: true,
    },
  ],
};
