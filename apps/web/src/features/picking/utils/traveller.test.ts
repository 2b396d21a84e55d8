import { describe, expect, it } from 'vitest';
import { travellerSource, type TravellerOrder, type TravellerTask } from './traveller.ts';

const wo: TravellerOrder = { type: 'wos', number: 'WO-7', customer: 'Plant 2', lineCount: 3, dueDate: '2026-12-01' };
const task = (taskCode: string, operationNumber: string, extra: Partial<TravellerTask> = {}): TravellerTask => ({
  taskCode,
  kind: 'wos',
  orderNumber: 'WO-7',
  operationNumber,
  description: `Op ${operationNumber}`,
  workCentre: 'WELD-1',
  plannedMinutes: 45,
  active: true,
  ...extra,
});

describe('travellerSource', () => {
  it('a work order with operations: one label per operation, in operation order, each with its task code as barcode', () => {
    const rows = travellerSource(wo, [
      task('T-100', '100'),
      task('T-20', '20', { workCentre: null, plannedMinutes: null }),
      task('T-10', '10', { plannedMinutes: 1.5 }),
    ]).rows;
    expect(rows).toEqual([
      {
        orderId: 'WO-7',
        qty: '3',
        dueDate: '2026-12-01',
        taskBarcode: 'T-10',
        operation: '10',
        description: 'Op 10',
        workCenter: 'WELD-1',
        plannedTime: '1.5 min',
      },
      {
        orderId: 'WO-7',
        qty: '3',
        dueDate: '2026-12-01',
        taskBarcode: 'T-20',
        operation: '20',
        description: 'Op 20',
        workCenter: '',
        plannedTime: '',
      },
      {
        orderId: 'WO-7',
        qty: '3',
        dueDate: '2026-12-01',
        taskBarcode: 'T-100',
        operation: '100',
        description: 'Op 100',
        workCenter: 'WELD-1',
        plannedTime: '45 min',
      },
    ]);
  });

  it('leaves out inactive tasks and tasks of another order or kind', () => {
    const rows = travellerSource(wo, [
      task('T-1', '10'),
      task('T-2', '20', { active: false }),
      task('T-3', '30', { orderNumber: 'WO-8' }),
      task('T-4', '40', { kind: 'mos' }),
    ]).rows;
    expect(rows.map((r) => r.taskBarcode)).toEqual(['T-1']);
  });

  it('manufacturing and routing orders too', () => {
    expect(travellerSource({ ...wo, type: 'mos' }, [task('M-1', '10', { kind: 'mos' })]).rows.map((r) => r.taskBarcode)).toEqual(['M-1']);
    expect(travellerSource({ ...wo, type: 'rst' }, [task('R-1', '10', { kind: 'rst' })]).rows.map((r) => r.taskBarcode)).toEqual(['R-1']);
  });

  it('a work order without tasks, and a sales order (whatever tasks are passed): one label with the order number', () => {
    const single = [{ orderId: 'WO-7', qty: '3', dueDate: '2026-12-01', taskBarcode: 'WO-7', description: 'Plant 2' }];
    expect(travellerSource(wo).rows).toEqual(single);
    expect(travellerSource(wo, [task('T-2', '20', { active: false })]).rows).toEqual(single);
    expect(travellerSource({ ...wo, type: 'sos', customer: null, dueDate: null }, [task('T-1', '10', { kind: 'wos' })]).rows).toEqual([
      { orderId: 'WO-7', qty: '3', dueDate: '', taskBarcode: 'WO-7', description: '' },
    ]);
  });
});
