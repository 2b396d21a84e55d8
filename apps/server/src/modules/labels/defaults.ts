import { tk } from '@floorhand/contract/i18n';
import { zplValue, type LabelKind } from '@floorhand/contract/labels';

// The templates every organisation starts with (inserted on first use, version 1, saved by 'system').
// 203 dpi (8 dots/mm) Zebra ZPL II; ^CI28 reads field data as UTF-8 (a Spanish word's accents). Sizes are the
// common roll sizes. The label's own words are `{{t:…}}`: printed in the language of whoever prints.

export interface DefaultTemplate {
  id: string;
  kind: LabelKind;
  name: string;
  widthMm: number;
  heightMm: number;
  dpi: 203;
  isDefault: boolean;
  zpl: string;
}

const zpl = (...lines: string[]) => lines.join('\n');

export const DEFAULT_TEMPLATES: readonly DefaultTemplate[] = [
  {
    id: 'stock-4x2',
    kind: 'stock',
    name: 'Stock 4 x 2 in, Code 128 and QR',
    widthMm: 101.6,
    heightMm: 50.8,
    dpi: 203,
    isDefault: true,
    zpl: zpl(
      '^XA^CI28',
      '^FO30,25^A0N,36,36^FD{{partNumber}}^FS',
      '^FO30,68^A0N,24,24^FB570,2,2,L^FD{{description}}^FS',
      '^FO30,130^BY2,3,90^BCN,90,Y,N,N^FD{{stockId}}^FS',
      '^FO30,262^A0N,26,26^FD{{warehouse}} {{location}}^FS',
      '^FO420,262^A0N,26,26^FD{{t:Qty}} {{qty}} {{uom}}^FS',
      '^FO30,302^A0N,22,22^FD{{t:Lot}} {{lot}}   {{t:Serial}} {{serial}}^FS',
      '^FO30,336^A0N,22,22^FD{{t:Condition}} {{condition}}   {{t:Received}} {{receivedDate}}^FS',
      '^FO630,25^BQN,2,5^FDQA,{{stockId}}^FS',
      '^XZ',
    ),
  },
  {
    id: 'stock-2x1',
    kind: 'stock',
    name: 'Stock 2 x 1 in, Code 128',
    widthMm: 50.8,
    heightMm: 25.4,
    dpi: 203,
    isDefault: false,
    zpl: zpl(
      '^XA^CI28',
      '^FO16,10^A0N,24,24^FD{{partNumber}}^FS',
      '^FO16,40^BY1,3,80^BCN,80,Y,N,N^FD{{stockId}}^FS',
      '^FO16,160^A0N,22,22^FD{{t:Qty}} {{qty}} {{uom}}  {{location}}^FS',
      '^XZ',
    ),
  },
  {
    id: 'stock-qr-2x2',
    kind: 'stock',
    name: 'Stock 2 x 2 in, QR',
    widthMm: 50.8,
    heightMm: 50.8,
    dpi: 203,
    isDefault: false,
    zpl: zpl(
      '^XA^CI28',
      '^FO16,12^A0N,26,26^FD{{stockId}}^FS',
      '^FO90,44^BQN,2,7^FDQA,{{stockId}}^FS',
      '^FO16,300^A0N,24,24^FD{{partNumber}}^FS',
      '^FO16,334^A0N,22,22^FD{{t:Qty}} {{qty}} {{uom}}  {{location}}^FS',
      '^XZ',
    ),
  },
  {
    id: 'pick-4x3',
    kind: 'pick',
    name: 'Pick 4 x 3 in',
    widthMm: 101.6,
    heightMm: 76.2,
    dpi: 203,
    isDefault: true,
    zpl: zpl(
      '^XA^CI28',
      '^FO30,25^A0N,40,40^FD{{orderId}}  {{t:Line}} {{line}}^FS',
      '^FO30,75^A0N,30,30^FD{{partNumber}}^FS',
      '^FO30,112^A0N,24,24^FB740,2,2,L^FD{{description}}^FS',
      '^FO30,180^A0N,30,30^FD{{t:Qty}} {{qty}} {{uom}}   {{t:Location}} {{location}}^FS',
      '^FO30,225^A0N,22,22^FD{{t:Lot}} {{lot}}   {{t:Serial}} {{serial}}^FS',
      '^FO30,270^BY2,3,110^BCN,110,Y,N,N^FD{{stockId}}^FS',
      '^FO30,440^A0N,22,22^FD{{t:Picked by}} {{picker}} {{printedDate}}^FS',
      '^XZ',
    ),
  },
  {
    id: 'traveller-4x6',
    kind: 'orderTraveller',
    name: 'Order traveller 4 x 6 in',
    widthMm: 101.6,
    heightMm: 152.4,
    dpi: 203,
    isDefault: true,
    zpl: zpl(
      '^XA^CI28',
      '^FO30,30^A0N,56,56^FD{{orderId}}^FS',
      '^FO30,100^A0N,36,36^FD{{t:Operation}} {{operation}}  {{workCenter}}^FS',
      '^FO30,150^A0N,28,28^FB740,3,4,L^FD{{description}}^FS',
      '^FO30,270^A0N,30,30^FD{{t:Part number}} {{partNumber}}   {{t:Qty}} {{qty}}^FS',
      '^FO30,315^A0N,30,30^FD{{t:Due}} {{dueDate}}   {{plannedTime}}^FS',
      '^FO30,400^BY3,3,160^BCN,160,Y,N,N^FD{{taskBarcode}}^FS',
      '^FO30,640^BQN,2,8^FDQA,{{taskBarcode}}^FS',
      '^XZ',
    ),
  },
  {
    id: 'loc-3x1',
    kind: 'loc',
    name: 'Location 3 x 1 in',
    widthMm: 76.2,
    heightMm: 25.4,
    dpi: 203,
    isDefault: true,
    zpl: zpl(
      '^XA^CI28',
      '^FO16,10^A0N,40,40^FD{{location}}^FS',
      '^FO420,14^A0N,24,24^FD{{warehouse}}^FS',
      '^FO16,58^BY2,3,100^BCN,100,N,N,N^FD{{location}}^FS',
      '^FO16,170^A0N,20,20^FD{{description}}^FS',
      '^XZ',
    ),
  },
  {
    id: 'staff-badge',
    kind: 'staff',
    name: 'Staff badge 2.25 x 1.25 in',
    widthMm: 57.15,
    heightMm: 31.75,
    dpi: 203,
    isDefault: true,
    zpl: zpl(
      '^XA^CI28',
      '^FO16,12^A0N,30,30^FD{{name}}^FS',
      '^FO16,46^A0N,20,20^FD{{org}}^FS',
      '^FO16,76^BY2,3,110^BCN,110,Y,N,N^FD{{badge}}^FS',
      '^XZ',
    ),
  },
  {
    id: 'package-4x6',
    kind: 'package',
    name: 'Package 4 x 6 in',
    widthMm: 101.6,
    heightMm: 152.4,
    dpi: 203,
    isDefault: true,
    zpl: zpl(
      '^XA^CI28',
      '^FO30,30^A0N,40,40^FD{{t:Ship to}}^FS',
      '^FO30,80^A0N,44,44^FB740,3,6,L^FD{{customer}}^FS',
      '^FO30,240^A0N,30,30^FD{{t:Order}} {{orderId}}   {{t:Items}} {{items}}^FS',
      '^FO30,285^A0N,30,30^FD{{packageType}}  {{weight}}  {{dimensions}}^FS',
      '^FO30,330^A0N,30,30^FD{{carrier}} {{service}}^FS',
      '^FO30,375^A0N,26,26^FD{{t:Tracking}} {{tracking}}^FS',
      '^FO30,440^BY3,3,160^BCN,160,Y,N,N^FD{{packageNo}}^FS',
      '^FO30,680^BQN,2,8^FDQA,{{packageNo}}^FS',
      '^FO500,1150^A0N,22,22^FD{{warehouse}} {{printedDate}}^FS',
      '^XZ',
    ),
  },
];

/** The test label a printer's "Test print" sends: fixed text, a barcode and the time. */
export const TEST_LABEL = (printer: string, at: string, t: (english: string) => string) =>
  zpl(
    '^XA^CI28',
    `^FO30,30^A0N,40,40^FD${zplValue(t(tk('Floorhand test label')))}^FS`,
    `^FO30,85^A0N,26,26^FD${zplValue(printer)}^FS`,
    `^FO30,125^A0N,22,22^FD${at}^FS`,
    '^FO30,165^BY2,3,80^BCN,80,Y,N,N^FDTEST-LABEL^FS',
    '^XZ',
  );
/** The test label's size (4 x 2 in), for its picture when downloaded. */
export const TEST_LABEL_MM = { width: 101.6, height: 50.8 } as const;
