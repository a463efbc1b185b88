/** The benchmark suites of `npm run bench`, one per area (each in its own file). */
export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}

import { eventStoreBench } from './event-store.ts';
import { clockBench } from './clock.ts';
import { authBench } from './auth.ts';
import { dashboardBench } from './dashboard.ts';
import { importBench } from './import.ts';
import { speedPiecesBench } from './speed-pieces.ts';
import { memoryBench } from './memory.ts';
import { consoleBench } from './console.ts';
import { wagesBench } from './wages.ts';
import { scopeBench } from './scope.ts';
import { freshReadsBench } from './fresh-reads.ts';
import { qualityBench } from './quality.ts';
import { workOrdersBench } from './work-orders.ts';
import { oeeBench } from './oee.ts';
import { idsBench } from './ids.ts';

export const suites: BenchSuite[] = [
  eventStoreBench,
  clockBench,
  authBench,
  dashboardBench,
  importBench,
  speedPiecesBench,
  memoryBench,
  consoleBench,
  wagesBench,
  // scopes
  scopeBench,
  freshReadsBench,
  qualityBench,
  workOrdersBench,
  oeeBench,
  idsBench,
];
