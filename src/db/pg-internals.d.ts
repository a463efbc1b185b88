/**
 * Types for the two node-postgres modules the statement batch (statement-batch.ts) uses beyond pg's typed API:
 * `pg/lib/result.js` (a query's result, filled from protocol messages) and `pg/lib/utils.js` (the value → wire
 * text conversion pg applies to parameters). Both are exported subpaths of the pg package (`./lib/*`).
 */
declare module 'pg/lib/result.js' {
  export default class Result {
    rows: unknown[];
    addFields(fields: unknown[]): void;
    parseRow(fields: unknown[]): unknown;
    addRow(row: unknown): void;
    addCommandComplete(msg: unknown): void;
  }
}

declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
