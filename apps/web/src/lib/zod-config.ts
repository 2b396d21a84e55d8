// zod, as the web app imports it: the build sends every `import … from 'zod'` here (vite.config.ts,
// zodJitless), so zod runs jitless before any schema of the contract is made, whichever chunk loads
// first. zod compiles object parsers with `new Function` when it may; the app's
// Content-Security-Policy forbids evaluating script text (docs/operations.md), and zod's probe for it
// would be reported as a violation on every page. Parsing without it is what the policy makes of it.
import { z } from 'zod';

z.config({ jitless: true });

export * from 'zod';
export { z as default } from 'zod';
