/** The seeded leave process: the applicant's approver decides; approval ends it, rejection returns it to the applicant. */
export const LEAVE_PROCESS_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  id="leave-definitions" targetNamespace="http://smart-admin/flow">
  <process id="leave" name="请假流程" isExecutable="true">
    <startEvent id="start" name="开始" />
    <userTask id="approve" name="审批" camunda:assignee="\${taskUser}" />
    <exclusiveGateway id="decision" name="审批结果" />
    <endEvent id="approved" name="通过" />
    <userTask id="adjust" name="调整申请" camunda:assignee="\${applyUser}" />
    <exclusiveGateway id="resubmit" name="是否重新申请" />
    <endEvent id="withdrawn" name="撤销" />
    <sequenceFlow id="toApprove" sourceRef="start" targetRef="approve" />
    <sequenceFlow id="toDecision" sourceRef="approve" targetRef="decision" />
    <sequenceFlow id="pass" name="同意" sourceRef="decision" targetRef="approved">
      <conditionExpression xsi:type="tFormalExpression">\${flag == 'ok'}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="reject" name="驳回" sourceRef="decision" targetRef="adjust">
      <conditionExpression xsi:type="tFormalExpression">\${flag != 'ok'}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="toResubmit" sourceRef="adjust" targetRef="resubmit" />
    <sequenceFlow id="again" name="重新申请" sourceRef="resubmit" targetRef="approve">
      <conditionExpression xsi:type="tFormalExpression">\${flag == 'ok'}</conditionExpression>
    </sequenceFlow>
    <sequenceFlow id="giveUp" name="撤销" sourceRef="resubmit" targetRef="withdrawn">
      <conditionExpression xsi:type="tFormalExpression">\${flag != 'ok'}</conditionExpression>
    </sequenceFlow>
  </process>
  <bpmndi:BPMNDiagram id="leave-diagram">
    <bpmndi:BPMNPlane id="leave-plane" bpmnElement="leave">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="152" y="182" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approve_di" bpmnElement="approve"><dc:Bounds x="240" y="160" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="decision_di" bpmnElement="decision" isMarkerVisible="true"><dc:Bounds x="395" y="175" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approved_di" bpmnElement="approved"><dc:Bounds x="502" y="182" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="adjust_di" bpmnElement="adjust"><dc:Bounds x="370" y="300" width="100" height="80" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="resubmit_di" bpmnElement="resubmit" isMarkerVisible="true"><dc:Bounds x="265" y="315" width="50" height="50" /></bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="withdrawn_di" bpmnElement="withdrawn"><dc:Bounds x="152" y="322" width="36" height="36" /></bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="toApprove_di" bpmnElement="toApprove"><di:waypoint x="188" y="200" /><di:waypoint x="240" y="200" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toDecision_di" bpmnElement="toDecision"><di:waypoint x="340" y="200" /><di:waypoint x="395" y="200" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="pass_di" bpmnElement="pass"><di:waypoint x="445" y="200" /><di:waypoint x="502" y="200" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="reject_di" bpmnElement="reject"><di:waypoint x="420" y="225" /><di:waypoint x="420" y="300" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="toResubmit_di" bpmnElement="toResubmit"><di:waypoint x="370" y="340" /><di:waypoint x="315" y="340" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="again_di" bpmnElement="again"><di:waypoint x="290" y="315" /><di:waypoint x="290" y="240" /></bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="giveUp_di" bpmnElement="giveUp"><di:waypoint x="265" y="340" /><di:waypoint x="188" y="340" /></bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>`;
