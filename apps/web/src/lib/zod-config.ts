import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may; the app's Content-Security-Policy
// forbids evaluating script text (docs/operations.md), and zod's probe for it would be reported as a
// violation on every page. Parsing without it is what the policy makes of it anyway.
z.config({ jitless: true });
