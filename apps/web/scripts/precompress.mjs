// Writes .br (brotli, max quality) and .gz (gzip level 9) siblings for every text asset in dist, so the
// server can send pre-compressed files. Uses node:zlib only.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '..', process.argv[2] ?? 'dist');
const EXTENSIONS = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map']);
const SKIP_MAPS = true;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

let files = 0;
let raw = 0;
let br = 0;
let gzBytes = 0;
for await (const file of walk(dist)) {
  const ext = extname(file);
  if (!EXTENSIONS.has(ext) || (SKIP_MAPS && ext === '.map')) continue;
  const data = await readFile(file);
  const [b, g] = await Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]:
          ext === '.svg' || ext === '.html' || ext === '.json'
            ? constants.BROTLI_MODE_TEXT
            : constants.BROTLI_MODE_GENERIC,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: 9 }),
  ]);
  await Promise.all([writeFile(`${file}.br`, b), writeFile(`${file}.gz`, g)]);
  files += 1;
  raw += (await stat(file)).size;
  br += b.length;
  gzBytes += g.length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`precompress: ${files} files, ${kb(raw)} raw, ${kb(br)} brotli, ${kb(gzBytes)} gzip`);
