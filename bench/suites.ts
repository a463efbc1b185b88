/** The benchmark suites of `npm run bench`, one per area (each in its own file). */
export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}

export const suites: BenchSuite[] = [];
