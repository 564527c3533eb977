import { describe, expect, it } from 'vitest';
import { smsParamsProblem, smsPlaceholders, smsRender } from './sms';

describe('SMS templates', () => {
  const t = '您的验证码为{code},{minutes}分钟内有效,验证码{code}';
  it('placeholders in the order they first appear, once each', () => {
    expect(smsPlaceholders(t)).toEqual(['code', 'minutes']);
  });
  it('params: missing, unknown and too long ones are named; a fitting set is fine', () => {
    expect(smsParamsProblem(t, { minutes: '5' })?.zh).toBe('缺少模板参数:{code}');
    expect(smsParamsProblem(t, { code: '1', minutes: '5', x: '1' })?.en).toContain('x');
    expect(smsParamsProblem(t, { code: '1'.repeat(36), minutes: '5' })?.zh).toContain('35');
    expect(smsParamsProblem(t, { code: '1234', minutes: 5 })).toBeNull();
  });
  it('renders every occurrence', () => {
    expect(smsRender(t, { code: '42', minutes: '5' })).toBe('您的验证码为42,5分钟内有效,验证码42');
  });
});
