/**
 * `node --import ./scripts/register-ts.mjs src/main.ts`: how `npm start` runs the service's TypeScript (the hooks of
 * scripts/ts-hooks.mjs), with source maps on so that stack traces name the .ts files and lines.
 */
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./ts-hooks.mjs', import.meta.url);
