/** The shared fixtures folder: `../shared/fixtures` beside the repository (as on the developers' machines and in CI). */
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures', import.meta.url));
