import type { OrderHeader } from '@floorhand/contract/orders';

/**
 * An order's traveller label (kind orderTraveller): customer, lines and due date, and the order number
 * as its barcodes, so a scanned traveller opens the order (stockPick's lookupVal). The template's
 * barcodes carry `taskBarcode`: left empty, the label has empty barcodes, which do not render (the PDF
 * without a printer was refused) and print as nothing a scanner can read.
 */
export const travellerSource = (order: Pick<OrderHeader, 'number' | 'customer' | 'lineCount' | 'dueDate'>) => ({
  rows: [{ orderId: order.number, taskBarcode: order.number, description: order.customer ?? '', qty: String(order.lineCount), dueDate: order.dueDate ?? '' }],
});
