// The database schema, one file per area in ./schema/ (drizzle-kit reads that folder); this file
// joins them so the app imports one module.
export * from './schema/columns.ts';
export * from './schema/org.ts';
export * from './schema/records.ts';
export * from './schema/stock.ts';
export * from './schema/labor.ts';
export * from './schema/labels.ts';
export * from './schema/counts.ts';
export * from './schema/orders.ts';
export * from './schema/timeclock.ts';
export * from './schema/kiosk.ts';
