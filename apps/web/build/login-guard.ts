/**
 * The /login guard, run by every production build: the files a cold /login loads — the HTML entry's
 * chunk, the login route's chunk and everything they import statically, with their CSS — must hold no
 * resource definition (only the light part of the contracts: `@smart/contracts/core`) and stay within the
 * byte budget (brotli, as the server sends them). Either failure fails the build.
 */
import { brotliCompressSync, constants } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

/** What the guard reads of a bundle (a subset of Rollup/Rolldown's output types). */
export type BundleItem =
  | {
      type: 'chunk';
      fileName: string;
      code: string;
      isEntry: boolean;
      facadeModuleId: string | null;
      imports: readonly string[];
      moduleIds: readonly string[];
      viteMetadata?: { importedCss: Set<string> };
    }
  | { type: 'asset'; fileName: string; source: string | Uint8Array };

export type Bundle = Record<string, BundleItem>;

/** The contracts modules /login may hold: wire types, constants, field types, kinds and rules — no definition. */
const LIGHT_CONTRACTS = [
  'core.ts',
  'api.ts',
  'constants.ts',
  'resource/types.ts',
  'resource/validate.ts',
  'resource/formats.ts',
  'resource/kinds.ts',
  'resource/today.ts',
];
const CONTRACTS = /[\\/]packages[\\/]contracts[\\/]src[\\/](.+)$/;

/** True for a module of the contracts that is not part of their light half (a definition, the registry…). */
export function isHeavyContract(moduleId: string): boolean {
  const m = CONTRACTS.exec(moduleId);
  return !!m && !LIGHT_CONTRACTS.includes(m[1].replaceAll('\\', '/'));
}

/** The files of a cold /login: the entry chunks and the login route's chunk, their static imports and CSS. */
export function loginFiles(bundle: Bundle, isLoginModule: (id: string) => boolean): string[] {
  const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
  const roots = chunks.filter((c) => c.isEntry || (c.facadeModuleId && isLoginModule(c.facadeModuleId)));
  if (!roots.some((c) => !c.isEntry)) throw new Error('login guard: the login route chunk was not found');
  const files = new Set<string>();
  const visit = (fileName: string) => {
    if (files.has(fileName)) return;
    files.add(fileName);
    const item = bundle[fileName];
    if (item?.type !== 'chunk') return;
    for (const css of item.viteMetadata?.importedCss ?? []) files.add(css);
    for (const dep of item.imports) visit(dep);
  };
  for (const root of roots) visit(root.fileName);
  return [...files].sort();
}

/** `file: module` for every heavy contracts module among the given files. */
export function heavyContractsIn(bundle: Bundle, files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const item = bundle[file];
    if (item?.type !== 'chunk') continue;
    for (const id of item.moduleIds) if (isHeavyContract(id)) found.push(`${file}: ${id}`);
  }
  return found;
}

/** Brotli bytes of the given files, compressed as scripts/precompress.mjs does. */
export function brotliBytes(bundle: Bundle, files: readonly string[]): number {
  let total = 0;
  for (const file of files) {
    const item = bundle[file];
    if (!item) continue;
    const data = Buffer.from(item.type === 'chunk' ? item.code : item.source);
    total += brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }).length;
  }
  return total;
}

/** Problems of a bundle's /login, empty when it passes. */
export function checkLogin(
  bundle: Bundle,
  options: { isLoginModule: (id: string) => boolean; budgetBytes: number },
): { files: string[]; bytes: number; problems: string[] } {
  const files = loginFiles(bundle, options.isLoginModule);
  const problems = heavyContractsIn(bundle, files).map(
    (m) => `a resource definition (or another heavy contracts module) is in /login: ${m}`,
  );
  const bytes = brotliBytes(bundle, files);
  if (bytes > options.budgetBytes) {
    // what to look at first: each file's share, largest first
    const shares = files
      .map((f) => ({ f, kb: brotliBytes(bundle, [f]) / 1024 }))
      .sort((a, b) => b.kb - a.kb)
      .map(({ f, kb }) => `  ${kb.toFixed(1)} KB ${f}`);
    problems.push(
      `/login loads ${(bytes / 1024).toFixed(1)} KB (brotli), over its budget of ${(options.budgetBytes / 1024).toFixed(0)} KB:\n${shares.join('\n')}`,
    );
  }
  return { files, bytes, problems };
}

/** The Vite plugin: checks the written bundle and fails the build on any problem. */
export function loginGuard(options: { loginModule: RegExp; budgetKb: number }): Plugin {
  let logger: Logger | undefined;
  return {
    name: 'smart:login-guard',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
    },
    writeBundle(_output, bundle) {
      const { files, bytes, problems } = checkLogin(bundle as unknown as Bundle, {
        isLoginModule: (id) => options.loginModule.test(id),
        budgetBytes: options.budgetKb * 1024,
      });
      if (problems.length) this.error(problems.join('\n'));
      logger?.info(
        `/login: ${files.length} files, ${(bytes / 1024).toFixed(1)} KB brotli, no resource definition (budget ${options.budgetKb} KB)`,
      );
    },
  };
}
