#!/usr/bin/env node
/**
 * `npm run test:pg`: the whole suite (type check included) on PostgreSQL in one command. Each test file creates
 * its own throwaway database on the server (`shift_test_<pid>_<random>`) and drops it afterwards, so nothing is
 * left behind. The server is TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres. Arguments are
 * passed to vitest (e.g. `npm run test:pg -- test/clock`).
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await probe.connect();
  await probe.query('SELECT 1');
} catch (err) {
  console.error(`PostgreSQL is not reachable at ${url} (${err.message}).`);
  console.error('Start it (on Debian: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start) or set TEST_DATABASE_URL.');
  process.exit(1);
} finally {
  await probe.end().catch(() => {});
}

const env = { ...process.env, TEST_DATABASE_URL: url };
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', env, shell: process.platform === 'win32' }).status ?? 1;
const typecheck = run('npx', ['tsc', '--noEmit']);
if (typecheck !== 0) process.exit(typecheck);
process.exit(run('npx', ['vitest', 'run', ...process.argv.slice(2)]));
