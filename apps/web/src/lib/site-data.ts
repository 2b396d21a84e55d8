import { queryOptions } from '@tanstack/react-query';
import { call } from './api.ts';
import { adminKeys } from './call-mutation.ts';

/** One site data document (app settings, brand): read by the admin screens and by the work areas it configures. */
export const getSiteData = (section: 'conf' | 'brand', dataId: string) => call('site/getData', { section, dataId });

export const siteDataQuery = (section: 'conf' | 'brand', dataId: string) =>
  queryOptions({ queryKey: adminKeys.siteData(section, dataId), queryFn: () => getSiteData(section, dataId), staleTime: 0 });
