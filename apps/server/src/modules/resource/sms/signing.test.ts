import { describe, expect, it } from 'vitest';
import { aliyunRpcSignature, rfc3986, wssePasswordDigest } from './signing';

describe('the providers’ request signatures', () => {
  it('Alibaba Cloud: the SendSms example of its signature documentation gives its published signature', () => {
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    };
    expect(aliyunRpcSignature('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
    // the signature itself is never part of what is signed
    expect(aliyunRpcSignature('GET', { ...params, Signature: 'x' }, 'testSecret')).toBe(
      'zJDF+Lrzhj/ThnlvIToysFRq6t4=',
    );
  });

  it('percent-encoding keeps only the unreserved characters', () => {
    expect(rfc3986("a b*~!'()")).toBe('a%20b%2A~%21%27%28%29');
  });

  it('Huawei Cloud: the digest is Base64 of the hex SHA-256, so it decodes to 64 hex digits', () => {
    const d = wssePasswordDigest('ac1c911c4792492687f8f6b2264a491e', '2018-05-26T00:35:30Z', 'secret');
    expect(Buffer.from(d, 'base64').toString()).toMatch(/^[0-9a-f]{64}$/);
  });
});
