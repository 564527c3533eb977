/** A sample leave-approval process (BPMN 2.0 with diagram) and its history, for the /test/index demo. */
export const SAMPLE_PROCESS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" id="leaveDefinitions" targetNamespace="http://bpmn.io/schema/bpmn">
  <process id="leave" name="请假流程" isExecutable="true">
    <startEvent id="start" name="开始" />
    <userTask id="apply" name="提交申请" />
    <userTask id="approve" name="部门审批" />
    <userTask id="hr" name="人事备案" />
    <endEvent id="end" name="结束" />
    <sequenceFlow id="flow1" sourceRef="start" targetRef="apply" />
    <sequenceFlow id="flow2" sourceRef="apply" targetRef="approve" />
    <sequenceFlow id="flow3" sourceRef="approve" targetRef="hr" />
    <sequenceFlow id="flow4" sourceRef="hr" targetRef="end" />
  </process>
  <bpmndi:BPMNDiagram id="diagram">
    <bpmndi:BPMNPlane id="plane" bpmnElement="leave">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="apply_di" bpmnElement="apply"><dc:Bounds x="190" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approve_di" bpmnElement="approve"><dc:Bounds x="350" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="hr_di" bpmnElement="hr"><dc:Bounds x="510" y="100" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end"><dc:Bounds x="670" y="122" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="flow1_di" bpmnElement="flow1"><di:waypoint x="136" y="140" /><di:waypoint x="190" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flow2_di" bpmnElement="flow2"><di:waypoint x="290" y="140" /><di:waypoint x="350" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flow3_di" bpmnElement="flow3"><di:waypoint x="450" y="140" /><di:waypoint x="510" y="140" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="flow4_di" bpmnElement="flow4"><di:waypoint x="610" y="140" /><di:waypoint x="670" y="140" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;

/** Started, applied, now waiting for the department's approval. */
export const SAMPLE_PROCESS_FLOW = [
  { historyActivityId: 'start', historyActivityType: 'startEvent', endTime: '2024-05-08 09:00:00' },
  { historyActivityId: 'flow1', historyActivityType: 'sequenceFlow', endTime: '2024-05-08 09:00:00' },
  { historyActivityId: 'apply', historyActivityType: 'userTask', endTime: '2024-05-08 09:05:00' },
  { historyActivityId: 'flow2', historyActivityType: 'sequenceFlow', endTime: '2024-05-08 09:05:00' },
  { historyActivityId: 'approve', historyActivityType: 'userTask', endTime: null },
];
