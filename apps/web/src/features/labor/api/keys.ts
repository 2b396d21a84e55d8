import type { CallArgs } from '@floorhand/contract/api';

export const laborKeys = {
  current: ['labor', 'current'] as const,
  task: (code: string) => ['labor', 'task', code] as const,
  reports: ['labor', 'report'] as const,
  report: (args: CallArgs<'labor/report'>) => ['labor', 'report', args] as const,
};
