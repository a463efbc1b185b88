/**
 * Limits of the spreadsheet import (decisions.md "Spreadsheet import": 10 MB per upload, 50,000 rows) and the
 * lifetime of a preview (30 minutes, enough to read it and confirm).
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 50_000;
export const PREVIEW_TTL_MS = 30 * 60_000;
/** Expired previews are deleted this long after they expire (until then confirming says "expired"). */
export const PREVIEW_RETENTION_MS = 24 * 3_600_000;
