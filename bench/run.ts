/**
 * `npm run bench`: performance figures, each printed beside a baseline measured in the same run on the same
 * database (never a timed test). Uses PostgreSQL from BENCH_DATABASE_URL / DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres; each suite works in a fresh database it drops afterwards.
 * `npm run bench -- <suite>` runs one suite.
 */
import { suites } from './suites.ts';

const only = process.argv[2];
for (const s of suites) {
  if (only && s.name !== only) continue;
  console.log(`\n== ${s.name} ==`);
  await s.run();
}
process.exit(0);
