import { type Task } from '@floorhand/contract/labor';
import { PRODUCTION_ORDER_TYPES, type OrderHeader } from '@floorhand/contract/orders';

export type TravellerOrder = Pick<OrderHeader, 'type' | 'number' | 'customer' | 'lineCount' | 'dueDate'>;
export type TravellerTask = Pick<
  Task,
  'taskCode' | 'kind' | 'orderNumber' | 'operationNumber' | 'description' | 'workCentre' | 'plannedMinutes' | 'active'
>;

/** Work, manufacturing and routing orders have operations (tasks); their travellers are per operation. */
export const hasOperations = (order: Pick<OrderHeader, 'type'>): boolean => PRODUCTION_ORDER_TYPES.has(order.type);

/** Operation numbers in operation order: numerically where they are numbers ('10' before '100'), then by task code. */
const byOperation = (a: TravellerTask, b: TravellerTask): number =>
  (a.operationNumber ?? '').localeCompare(b.operationNumber ?? '', 'en', { numeric: true }) ||
  a.taskCode.localeCompare(b.taskCode, 'en', { numeric: true });

/** Planned minutes as the label prints them ("45 min", "1.5 min"); empty without a plan. */
const plannedTime = (minutes: number | null): string => (minutes === null ? '' : `${minutes} min`);

/**
 * An order's traveller labels (kind orderTraveller). A work, manufacturing or routing order with
 * active tasks (operations of that order: same kind and number): one label per operation, in operation
 * order, each with that task's code as its barcodes (`taskBarcode`), so a scanned traveller starts the
 * operation on /singleTask or /batchTask (task/get looks the code up exactly). Any other order, or
 * one without tasks: one label with the order number as its barcodes, so a scanned traveller opens
 * the order (stockPick's lookupVal). Left empty, the template's barcodes would not render (the PDF
 * without a printer was refused) and print as nothing a scanner can read: never empty here.
 */
export function travellerSource(order: TravellerOrder, tasks: readonly TravellerTask[] = []) {
  const head = { orderId: order.number, qty: String(order.lineCount), dueDate: order.dueDate ?? '' };
  const operations = hasOperations(order)
    ? tasks.filter((t) => t.active && t.kind === order.type && t.orderNumber === order.number).sort(byOperation)
    : [];
  if (!operations.length) return { rows: [{ ...head, taskBarcode: order.number, description: order.customer ?? '' }] };
  return {
    rows: operations.map((t) => ({
      ...head,
      taskBarcode: t.taskCode,
      operation: t.operationNumber ?? '',
      description: t.description,
      workCenter: t.workCentre ?? '',
      plannedTime: plannedTime(t.plannedMinutes),
    })),
  };
}
