import { describe, expect, it } from 'vitest';
import { plainNamespaces } from './namespaces';

describe('plainNamespaces', () => {
  it('answers a file that binds no prefix again as it is', () => {
    const xml = '<a:r xmlns:a="urn:a" xmlns:b="urn:b"><b:x b:y="1"/><!-- <c:z xmlns:c="urn:c"/> --></a:r>';
    expect(plainNamespaces(xml)).toBe(xml);
  });

  it('gives each namespace one prefix, declared on the root, names and xsi:type values renamed', () => {
    const xml = `<?xml version="1.0"?>
<d xmlns="urn:bpmn" xmlns:f="urn:flowable" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <p xmlns:f="urn:activiti"><t f:assignee="a"><c xsi:type="f:tExpr">\${x > 1}</c></t></p>
  <b:t xmlns:b="urn:bpmn" f:assignee='b "q"'/>
  <e xmlns="urn:vendor"><n/></e>
</d>`;
    expect(plainNamespaces(xml)).toBe(`<?xml version="1.0"?>
<d xmlns="urn:bpmn" xmlns:f="urn:flowable" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:f1="urn:activiti" xmlns:ns1="urn:vendor">
  <p><t f1:assignee="a"><c xsi:type="f1:tExpr">\${x > 1}</c></t></p>
  <t f:assignee="b &quot;q&quot;"/>
  <ns1:e><ns1:n/></ns1:e>
</d>`);
  });
});
