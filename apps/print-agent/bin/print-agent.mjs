#!/usr/bin/env node
// The print agent's command: runs src/cli.ts through tsx (no build step; docs/labels.md).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
