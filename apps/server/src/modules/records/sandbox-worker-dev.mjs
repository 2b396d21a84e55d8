// Starts sandbox-worker.ts from the source tree (tests, `npm run dev:server`): TypeScript through tsx.
// The built server starts dist/sandbox-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./sandbox-worker.ts');
