import { describe, expect, it } from 'vitest';
import { type Bundle, checkLogin, isHeavyContract, loginFiles } from './login-guard';

const C = '/repo/packages/contracts/src/';
const chunk = (fileName: string, imports: string[], moduleIds: string[], extra = {}) => ({
  type: 'chunk' as const,
  fileName,
  code: `/* ${fileName} */ export const x = ${JSON.stringify(moduleIds)};`,
  isEntry: false,
  facadeModuleId: null,
  imports,
  moduleIds,
  ...extra,
});
const isLogin = (id: string) => id.endsWith('/LoginPage.tsx');

function bundleWith(loginDeps: string[]): Bundle {
  return {
    'index.js': chunk('index.js', ['core.js'], ['/repo/apps/web/src/main.tsx'], { isEntry: true }),
    'core.js': chunk('core.js', [], [`${C}core.ts`, `${C}constants.ts`, `${C}resource/validate.ts`]),
    'LoginPage.js': chunk(
      'LoginPage.js',
      ['index.js', ...loginDeps],
      ['/repo/src/shell/login/LoginPage.tsx'],
      {
        facadeModuleId: '/repo/src/shell/login/LoginPage.tsx',
        viteMetadata: { importedCss: new Set(['login.css']) },
      },
    ),
    'login.css': { type: 'asset', fileName: 'login.css', source: '.a{color:red}' },
    'village.js': chunk('village.js', ['core.js'], [`${C}resource/village.ts`, `${C}resource/types.ts`]),
    'registry.js': chunk('registry.js', ['village.js'], [`${C}resource/registry.ts`]),
  };
}

describe('the /login guard', () => {
  it('tells the light contracts from definitions, the registry and the root barrel', () => {
    for (const light of ['core.ts', 'api.ts', 'constants.ts', 'resource/types.ts', 'resource/validate.ts'])
      expect(isHeavyContract(C + light), light).toBe(false);
    for (const heavy of ['index.ts', 'resource/village.ts', 'resource/registry.ts', 'resource/dicts.ts'])
      expect(isHeavyContract(C + heavy), heavy).toBe(true);
    expect(isHeavyContract('/repo/apps/web/src/platform/crud/resource-pages.tsx')).toBe(false);
  });

  it('follows static imports of the entry and the login chunk, not the lazy chunks', () => {
    expect(loginFiles(bundleWith([]), isLogin)).toEqual(['LoginPage.js', 'core.js', 'index.js', 'login.css']);
  });

  it('passes a /login without definitions within budget', () => {
    const { problems, bytes } = checkLogin(bundleWith([]), {
      isLoginModule: isLogin,
      budgetBytes: 175 * 1024,
    });
    expect(problems).toEqual([]);
    expect(bytes).toBeGreaterThan(0);
  });

  it('fails when a definition module reaches /login, even through another chunk', () => {
    const { problems } = checkLogin(bundleWith(['registry.js']), {
      isLoginModule: isLogin,
      budgetBytes: 175 * 1024,
    });
    expect(problems).toEqual([
      expect.stringContaining(`registry.js: ${C}resource/registry.ts`),
      expect.stringContaining(`village.js: ${C}resource/village.ts`),
    ]);
  });

  it('fails over budget', () => {
    const { problems } = checkLogin(bundleWith([]), { isLoginModule: isLogin, budgetBytes: 10 });
    expect(problems).toEqual([expect.stringMatching(/over its budget/)]);
  });

  it('refuses a bundle without the login chunk rather than passing it', () => {
    expect(() => loginFiles(bundleWith([]), () => false)).toThrow(/login route chunk/);
  });
});
