// The table of bench/village.mjs: a row per measurement, each beside its target (rows of buildTable, measure.mjs).
import { buildTable, excelExportRows, fmt, num, peakMemoryRow } from './measure.mjs';
import { IMPORT_ROWS, MIX_QUERIES, VILLAGERS } from './village-seed.mjs';

/** The rows of one search of workload 1: the real page, the bare route, and the ratio of the two. */
function pageRows(key, title, target, turns) {
  const bareKey = `bare_${key}`;
  const hot = `${key}Remembered`;
  const differs = (r) => r.bareSame?.[key] === false;
  return [
    {
      name: `${title}, 50 conns, as the product answers it (remembered until villagers change): throughput`,
      src: hot,
      get: (r) => r[hot]?.rps,
      load: true,
      f: fmt.rps,
    },
    {
      name: `${title}, as the product answers it: p99 latency`,
      src: hot,
      get: (r) => r[hot]?.p99,
      load: true,
      f: (v, r) => `${fmt.lat(v)} (read from the database: ${r[key]?.p99 ?? '—'} ms)`,
      target: '≤ 20 ms and ≤ the p99 read from the database (PostgreSQL)',
      ok: (v, r) => v <= 20 && !(v > r?.[key]?.p99),
      only: 'postgres',
    },
    {
      name: `${title}, read from the database on every request (READ_CACHE=false), 50 conns: throughput`,
      src: key,
      get: (r) => r[key]?.rps,
      load: true,
      f: fmt.rps,
    },
    {
      name: `${title}, READ_CACHE=false: p50 latency`,
      src: key,
      get: (r) => r[key]?.p50,
      load: true,
      f: fmt.lat,
    },
    {
      name: `${title}, READ_CACHE=false: p99 latency`,
      src: key,
      get: (r) => r[key]?.p99,
      load: true,
      f: fmt.lat,
    },
    {
      name: `${title}, READ_CACHE=false: one request at a time (median)`,
      src: key,
      get: (r) => r[key]?.single,
      f: fmt.lat,
    },
    {
      name: 'Bare Fastify, same SQL as that page: throughput',
      src: bareKey,
      get: (r) => r[bareKey]?.rps,
      load: true,
      f: fmt.rps,
    },
    // the floor: what any server answering this page through the same driver reaches on this machine
    {
      name: 'Bare Fastify, same SQL: p99 latency',
      src: bareKey,
      get: (r) => r[bareKey]?.p99,
      load: true,
      f: fmt.lat,
    },
    {
      name: 'Bare Fastify, same SQL: one request at a time (median)',
      src: bareKey,
      get: (r) => r[bareKey]?.single,
      f: fmt.lat,
    },
    {
      name: `Framework overhead ratio real (READ_CACHE=false) / bare (throughput), median of ${turns} turns' ratios`,
      src: bareKey,
      get: (r) => r[`ratio_${key}`]?.rps,
      load: true,
      f: (v, r) => fmt.ratio(v) + (differs(r) ? ' (bare answered other rows!)' : ''),
      suspect: differs,
      ...(target ? { target: '≥ 0.9 (PostgreSQL)', ok: (v) => v >= 0.9, only: 'postgres' } : {}),
    },
    {
      name: `Framework overhead ratio, one request at a time (bare ms / real ms), median of ${turns} turns' ratios`,
      src: bareKey,
      get: (r) => r[`ratio_${key}`]?.single,
      f: (v, r) => fmt.ratio(v) + (differs(r) ? ' (bare answered other rows!)' : ''),
      suspect: differs,
      ...(target ? { target: '≥ 0.8 (PostgreSQL)', ok: (v) => v >= 0.8, only: 'postgres' } : {}),
    },
  ];
}

export function villageTable(res, turns) {
  const phases = (r) =>
    ['check', 'write']
      .filter((p) => r.import.phases?.[p] !== undefined)
      .map((p) => `${p} from ${fmt.s(r.import.phases[p])}`)
      .join(', ');
  const rows = [
    ...pageRows('groupSex', `villager/page over ${num(VILLAGERS)}, village group + sex filter`, true, turns),
    ...pageRows(
      'name',
      'villager/page, a full name typed into the search box (matched anywhere)',
      true,
      turns,
    ),
    {
      name: `villager/page, ${num(MIX_QUERIES)} distinct queries (random pages 1–20, village groups, sexes, surnames; each filter's first page asked once before), 50 conns, as the product answers them: p99 latency`,
      src: 'mix',
      get: (r) => r.mix?.p99,
      load: true,
      f: (v, r) => `${fmt.lat(v)} (${fmt.rps(r.mix.rps)}, p50 ${r.mix.p50} ms)`,
      target: '≤ 50 ms (PostgreSQL)',
      ok: (v) => v <= 50,
      only: 'postgres',
    },
    {
      name: 'Bare Fastify, same SQL, the same mixed queries: p99 latency',
      src: 'bare_mix',
      get: (r) => r.bare_mix?.p99,
      load: true,
      f: (v, r) => `${fmt.lat(v)} (${fmt.rps(r.bare_mix.rps)}, p50 ${r.bare_mix.p50} ms)`,
    },
    ...excelExportRows('one village group'),
    {
      name: `Excel import of ${num(IMPORT_ROWS)} villagers: seconds until the answer`,
      src: 'import',
      get: (r) => r.import?.seconds,
      f: (v, r) =>
        `${fmt.s(v)} (${num(r.import.result?.created ?? 0)} created, ${num(r.import.listed)} listed` +
        `${phases(r) ? `; ${phases(r)}` : ''})`,
    },
    {
      name: 'Excel import: the slowest answer to the progress the web asks for every 0.4 s',
      src: 'import',
      get: (r) => r.import?.slowestPoll,
      f: fmt.s,
    },
    peakMemoryRow('Excel import', 'import'),
    { name: 'Server resident memory at the end (VmRSS)', get: (r) => r.rssMb, f: fmt.mb },
  ];
  return buildTable(rows, res);
}
