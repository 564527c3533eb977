/**
 * The model designer (新增 / 编辑 on /flow/model): the model's key, name, category and description above a
 * bpmn-js Modeler with the camunda moddle (so the panel writes camunda:assignee, camunda:candidateUsers,
 * camunda:candidateGroups, camunda:type and camunda:field, camunda:in / camunda:out) and the properties
 * panel beside it. Expanded call activities draw the process they call, as the diagram viewer does
 * (called-content.ts, read-only). Its own chunk: bpmn-js loads only when a model is opened.
 */

import { placeholderFor } from '@smart/contracts/placeholder';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';
import {
  CompressOutlined,
  DownloadOutlined,
  RedoOutlined,
  UndoOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { checkExpression, checkList, type ExpressionError } from '@smart/contracts/bpmn';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Spin, Tooltip, Typography } from 'antd';
import Modeler from 'bpmn-js/lib/Modeler';
import camunda from 'camunda-bpmn-moddle/resources/camunda.json';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, HttpError, postData } from '../../../platform/http/client';
import { currentLanguage } from '../../../platform/i18n';
import { type DiagramChoice, type DiagramDefinitions, diagramsOf } from '../../../shell/flow/diagrams';
import { FLOW_API, type ModelDetail, useRoles, useTenantUsers } from '../api';
import { CategorySelect } from '../PagedList';
import { bpmnZh, makeTranslate } from './bpmn-zh';
import { calledContentModule } from './called-content';
import { KeyboardTools } from './KeyboardTools';
import { PropertiesPanel } from './PropertiesPanel';
import { timerDefinitionOf, useTimerErrorText } from './TimerFields';
import { checkTimer, type TimerError, type TimerKind, timerOf } from './timer';
import type { BusinessObject, DiagramElement, ModelerLike } from './types';
import { userTaskEntriesModule } from './user-task-entries';

const MODEL_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

interface FormValues {
  modelKey: string;
  name: string;
  category?: string;
  description?: string;
}

/** A new model: one executable process holding a start event. */
export function blankDiagram(startName: string): string {
  const name = startName.replace(/[<>&"]/g, '');
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_1" targetNamespace="http://smart-admin/flow">
  <bpmn:process id="Process_1" isExecutable="true">
    <bpmn:startEvent id="StartEvent_1" name="${name}" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="Process_1">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1">
        <dc:Bounds x="180" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;
}

/**
 * The process's id is the model key (the server deploys it under that key) and its name the model's. The
 * process is the file's executable one, else the one its first diagram draws — not the one on screen: a
 * file with several diagrams may be showing another (a called process) when it is saved.
 */
function syncProcess(modeler: ModelerLike, key: string, name: string) {
  const definitions: DiagramDefinitions = modeler.getDefinitions();
  const processes = ((definitions.rootElements ?? []) as BusinessObject[]).filter(
    (e) => e.$type === 'bpmn:Process',
  );
  const drawn = definitions.diagrams?.[0]?.plane?.bpmnElement as BusinessObject | undefined;
  const firstDrawn =
    drawn?.$type === 'bpmn:Process'
      ? drawn
      : ((drawn as { participants?: BusinessObject[] } | undefined)?.participants ?? []).find(
          (p) => p.processRef,
        )?.processRef;
  const process = processes.find((p) => p.isExecutable) ?? firstDrawn ?? processes[0];
  if (!process || (process.id === key && process.name === name && process.isExecutable)) return;
  const root = modeler.get('canvas').getRootElement();
  // the process on screen changes through modeling (its element's id too); another one directly
  if (root.businessObject === process)
    modeler.get('modeling').updateProperties(root, { id: key, name, isExecutable: true });
  else {
    process.id = key;
    process.name = name;
    process.isExecutable = true;
  }
}

/** The first timer whose time the engine would refuse (an empty one is left to the deployment to name). */
function firstBadTimer(
  modeler: ModelerLike,
): { el: DiagramElement; kind: TimerKind; error: TimerError } | null {
  for (const el of modeler.get('elementRegistry').getAll()) {
    const def = el.type === 'label' ? undefined : timerDefinitionOf(el);
    if (!def) continue;
    const { kind, value } = timerOf(def);
    const error = value.trim() ? checkTimer(kind, value) : null;
    if (error) return { el, kind, error };
  }
  return null;
}

/** The first element whose expression the engine would refuse. */
function firstBadExpression(modeler: ModelerLike): { el: DiagramElement; error: ExpressionError } | null {
  for (const el of modeler.get('elementRegistry').getAll()) {
    if (el.type === 'label' || !el.businessObject?.get) continue;
    const bo = el.businessObject;
    for (const k of ['camunda:assignee', 'camunda:candidateUsers', 'camunda:candidateGroups']) {
      const v = bo.get(k);
      const error = typeof v === 'string' && v !== '' ? checkList(v) : null;
      if (error) return { el, error };
    }
    const body = bo.conditionExpression?.body;
    const error = body?.trim() ? checkExpression(body) : null;
    if (error) return { el, error };
  }
  return null;
}

export default function ModelDesigner({
  modelId,
  onClose,
  onSaved,
}: {
  modelId?: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const timerErrorText = useTimerErrorText();
  const [form] = Form.useForm<FormValues>();
  const canvasRef = useRef<HTMLDivElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [modeler, setModeler] = useState<ModelerLike | null>(null);
  const [dirty, setDirty] = useState(false);
  // a file with several diagrams offers a switch between them
  const [diagrams, setDiagrams] = useState<DiagramChoice[]>([]);
  const [saving, setSaving] = useState(false);
  const [importError, setImportError] = useState('');
  const detail = useQuery({
    queryKey: ['flow-model-detail', modelId],
    queryFn: () => getData<ModelDetail>(`${FLOW_API}/model/detail`, { id: modelId }),
    enabled: !!modelId,
    gcTime: 0,
  });
  const users = useTenantUsers();
  const roles = useRoles();
  const ready = !modelId || !!detail.data;
  const xml = detail.data?.xml;
  const startName = t('wf.designer.startName');
  const modelKey = Form.useWatch('modelKey', form) ?? '';
  const modelName = Form.useWatch('name', form) ?? '';

  // what the modeler opens, fixed once: a later refetch or a language change must not wipe the drawing
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    if (ready && source === null) setSource(xml || blankDiagram(startName));
  }, [ready, source, xml, startName]);

  useEffect(() => {
    const container = canvasRef.current;
    if (source === null || !container) return;
    const lang = currentLanguage();
    const instance = new Modeler({
      container,
      moddleExtensions: { camunda },
      additionalModules: [
        { translate: ['value', makeTranslate(lang === 'zh' ? bpmnZh : {})] },
        userTaskEntriesModule,
        calledContentModule,
      ],
    } as never) as unknown as ModelerLike;
    let alive = true;
    instance
      .importXML(source)
      .then(() => {
        if (!alive) return;
        const canvas = instance.get('canvas');
        if (instance.get('elementRegistry').getAll().length > 3 && canvas.zoom('fit-viewport', 'auto') > 1)
          canvas.zoom(1, 'auto');
        instance.get('eventBus').on('commandStack.changed', () => setDirty(true));
        setDiagrams(diagramsOf(instance.getDefinitions()));
        setModeler(instance);
      })
      .catch((e: Error) => alive && setImportError(e.message));
    return () => {
      alive = false;
      setModeler(null);
      instance.destroy();
    };
  }, [source]);

  const close = () => {
    if (!dirty) return onClose();
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('wf.designer.discard'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: onClose,
    });
  };

  const save = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (!modeler) return;
    let saved: string | undefined;
    try {
      syncProcess(modeler, values.modelKey, values.name);
      const bad = firstBadExpression(modeler);
      if (bad) {
        modeler.get('selection').select(bad.el);
        const { error } = bad;
        message.error(
          t('wf.designer.fixExpression', {
            name: bad.el.businessObject.name || bad.el.id,
            reason: t(`wf.designer.expr.${error.kind}`, { token: 'token' in error ? error.token : '' }),
          }),
        );
        return;
      }
      const badTimer = firstBadTimer(modeler);
      if (badTimer) {
        modeler.get('selection').select(badTimer.el);
        const { error, kind } = badTimer;
        message.error(
          t('wf.designer.fixTimer', {
            name: badTimer.el.businessObject.name || badTimer.el.id,
            reason: timerErrorText(kind, error),
          }),
        );
        return;
      }
      saved = (await modeler.saveXML({ format: true })).xml;
    } catch (e) {
      // a diagram the modeler cannot write (a prefix bound to another namespace…): say so, keep the work
      message.error(t('wf.designer.saveFailed', { reason: (e as Error).message }));
      return;
    }
    setSaving(true);
    try {
      await postData(`${FLOW_API}/model/submit`, {
        ...(modelId ? { id: modelId } : {}),
        modelKey: values.modelKey,
        name: values.name,
        category: values.category || null,
        description: values.description || null,
        xml: saved,
      });
      message.success(t('common.saved'));
      setDirty(false);
      onSaved();
    } catch (e) {
      const field =
        e instanceof HttpError ? (e.body as { data?: { field?: string } })?.data?.field : undefined;
      if (field && ['modelKey', 'name', 'category', 'description'].includes(field))
        form.setFields([{ name: field as keyof FormValues, errors: [(e as Error).message] }]);
    } finally {
      setSaving(false);
    }
  };

  const importFile = async (file: File | undefined) => {
    if (!file || !modeler) return;
    try {
      await modeler.importXML(await file.text());
      setDiagrams(diagramsOf(modeler.getDefinitions()));
      const canvas = modeler.get('canvas');
      if (canvas.zoom('fit-viewport', 'auto') > 1) canvas.zoom(1, 'auto');
      setDirty(true);
      message.success(t('wf.designer.imported'));
    } catch (e) {
      message.error(t('wf.designer.importFailed', { reason: (e as Error).message }));
    }
  };

  const download = async () => {
    if (!modeler) return;
    const { xml: text } = await modeler.saveXML({ format: true });
    const url = URL.createObjectURL(new Blob([text ?? ''], { type: 'application/xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${form.getFieldValue('modelKey') || 'process'}.bpmn20.xml`;
    a.click();
    URL.revokeObjectURL(url);
  };

  const initial: Partial<FormValues> = detail.data
    ? {
        modelKey: detail.data.modelKey,
        name: detail.data.name,
        category: detail.data.category ?? undefined,
        description: detail.data.description ?? undefined,
      }
    : {};

  return (
    <Modal
      open
      title={t(modelId ? 'wf.designer.titleEdit' : 'wf.designer.titleAdd')}
      width="96vw"
      style={{ top: 12, maxWidth: 1600 }}
      keyboard={false}
      maskClosable={false}
      destroyOnHidden
      onCancel={close}
      footer={[
        <Button key="cancel" onClick={close}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} disabled={!modeler} onClick={save}>
          {t('common.save')}
        </Button>,
      ]}
    >
      {!ready ? (
        <Spin />
      ) : (
        <>
          <Form
            form={form}
            name="flowModel"
            layout="inline"
            initialValues={initial}
            style={{ rowGap: 12, marginBottom: 12 }}
            aria-label={t('wf.designer.modelForm')}
          >
            <Form.Item
              name="modelKey"
              label={t('wf.model.modelKey')}
              rules={[
                { required: true, whitespace: true, message: t('wf.model.modelKeyRequired') },
                { pattern: MODEL_KEY, message: t('wf.model.modelKeyPattern') },
                { max: 64, message: t('wf.maxLength', { max: 64 }) },
              ]}
            >
              <Input placeholder="leave_apply" style={{ width: 180 }} />
            </Form.Item>
            <Form.Item
              name="name"
              label={t('wf.model.name')}
              rules={[
                { required: true, whitespace: true, message: t('wf.model.nameRequired') },
                { max: 255, message: t('wf.maxLength', { max: 255 }) },
              ]}
            >
              <Input style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="category" label={t('wf.category')}>
              <CategorySelect
                aria-label={t('wf.category')}
                placeholder={placeholderFor(t('wf.category'), 'one', currentLanguage())}
              />
            </Form.Item>
            <Form.Item
              name="description"
              label={t('wf.model.description')}
              rules={[{ max: 1000, message: t('wf.maxLength', { max: 1000 }) }]}
            >
              <Input style={{ width: 260 }} />
            </Form.Item>
          </Form>
          <Space style={{ marginBottom: 8 }} wrap>
            <Tooltip title={t('wf.designer.undo')}>
              <Button
                aria-label={t('wf.designer.undo')}
                icon={<UndoOutlined />}
                disabled={!modeler}
                onClick={() => modeler?.get('commandStack').undo()}
              />
            </Tooltip>
            <Tooltip title={t('wf.designer.redo')}>
              <Button
                aria-label={t('wf.designer.redo')}
                icon={<RedoOutlined />}
                disabled={!modeler}
                onClick={() => modeler?.get('commandStack').redo()}
              />
            </Tooltip>
            <Tooltip title={t('wf.designer.fit')}>
              <Button
                aria-label={t('wf.designer.fit')}
                icon={<CompressOutlined />}
                disabled={!modeler}
                onClick={() => modeler?.get('canvas').zoom('fit-viewport', 'auto')}
              />
            </Tooltip>
            <Button icon={<UploadOutlined />} disabled={!modeler} onClick={() => fileRef.current?.click()}>
              {t('wf.designer.importFile')}
            </Button>
            <input
              ref={fileRef}
              type="file"
              accept=".bpmn,.xml"
              hidden
              aria-hidden="true"
              tabIndex={-1}
              onChange={(e) => {
                void importFile(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
            <Button icon={<DownloadOutlined />} disabled={!modeler} onClick={download}>
              {t('wf.designer.download')}
            </Button>
            {modeler && diagrams.length > 1 && (
              <Select
                aria-label={t('flow.diagramSwitch')}
                key={diagrams[0].id}
                defaultValue={diagrams[0].id}
                style={{ minWidth: 180 }}
                options={diagrams.map((d) => ({ value: d.id, label: d.name }))}
                onChange={(id: string) => {
                  modeler.open(id).catch((e: Error) => message.error(e.message));
                }}
              />
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }} id="flow-designer-hint">
              {t('wf.designer.hint')}
            </Typography.Text>
          </Space>
          {modeler && (
            <div style={{ marginBottom: 8 }}>
              <KeyboardTools modeler={modeler} />
            </div>
          )}
          {importError && <Alert type="error" showIcon title={importError} style={{ marginBottom: 8 }} />}
          <div
            style={{
              display: 'flex',
              border: '1px solid #f0f0f0',
              height: 'calc(100vh - 330px)',
              minHeight: 420,
            }}
          >
            <section
              ref={canvasRef}
              aria-label={t('wf.designer.canvas')}
              aria-describedby="flow-designer-hint"
              style={{ flex: 1, minWidth: 0, position: 'relative' }}
            />
            {modeler && (
              <PropertiesPanel
                modeler={modeler}
                processKey={modelKey}
                processName={modelName}
                users={users.data ?? []}
                roles={roles.data ?? []}
              />
            )}
          </div>
        </>
      )}
    </Modal>
  );
}
