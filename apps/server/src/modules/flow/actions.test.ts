import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config';
import { configureActions, httpAllowed, parseHttpAllow, prepareHttp } from './actions';
import type { flowInstance } from './tables';

/** The workflow `http` action's allow-list compares parsed origins and path segments, never text prefixes. */
describe('the http action allow-list', () => {
  const allow = parseHttpAllow(
    'http://a.example.com, https://api.example.com/hooks/, https://b.example.com/v1',
  );

  it('refuses look-alike hosts that a text prefix would let through', () => {
    for (const url of [
      'http://a.example.com.evil/x',
      'http://a.example.com.evil',
      'http://a.example.comx/',
      'http://a.example.com@evil.example/x',
      'http://user:pass@a.example.com/x',
      'http://a.example.com:8080/x',
      'https://a.example.com/x',
      'https://api.example.com/hooksx',
      'https://api.example.com/hooks/../admin',
      'https://api.example.com/hooks/%2e%2e/admin',
      'https://api.example.com/',
      'https://b.example.com/v10',
      'ftp://a.example.com/x',
      'not a url',
      '',
    ])
      expect(httpAllowed(allow, url), url).toBe(false);
  });

  it('accepts the real origins, the default port written or not, and paths at or below the entry', () => {
    for (const url of [
      'http://a.example.com',
      'http://a.example.com/',
      'http://A.EXAMPLE.COM/anything?x=1',
      'http://a.example.com:80/x',
      'https://api.example.com/hooks/',
      'https://api.example.com:443/hooks/done',
      'https://b.example.com/v1',
      'https://b.example.com/v1/orders',
    ])
      expect(httpAllowed(allow, url), url).toBe(true);
  });

  it('an action’s address is checked the same way when the task is reached', () => {
    configureActions('http://a.example.com');
    const instance = { processInstanceId: 'p1' } as typeof flowInstance.$inferSelect;
    const action = (url: string) => ({
      executionId: 'e',
      activityId: 'h',
      name: '回调',
      action: 'http',
      fields: { url },
    });
    expect(() => prepareHttp(instance, action('http://a.example.com.evil/hook'), {})).toThrow();
    expect(prepareHttp(instance, action('http://a.example.com/hook'), {}).url).toBe(
      'http://a.example.com/hook',
    );
    configureActions('');
  });

  it('the configuration refuses an entry that is no http(s) address', () => {
    expect(() => loadConfig({ FLOW_HTTP_ALLOW: 'a.example.com' })).toThrow(/FLOW_HTTP_ALLOW/);
    expect(() => loadConfig({ FLOW_HTTP_ALLOW: 'http://u:p@a.example.com/' })).toThrow(/FLOW_HTTP_ALLOW/);
    expect(
      loadConfig({ FLOW_HTTP_ALLOW: 'http://a.example.com, https://b.example.com/x/' }).FLOW_HTTP_ALLOW,
    ).toBe('http://a.example.com, https://b.example.com/x/');
  });
});
