import { useState } from 'react';
import { CountingScreen } from './counting-screen.tsx';
import { ReviewScreen } from './review-screen.tsx';
import { SheetList } from './sheet-list.tsx';

type View = { view: 'list' } | { view: 'count'; sheetId: string } | { view: 'review'; sheetId: string };

/**
 * Physical Inventory: the count sheets (filtered by the physicalInventory preferences), the counting
 * screen of a handheld (scan a location, scan each label, enter the quantity) and the review of a
 * sheet (variances, recount, exclude, post, CSV).
 */
export function PhysicalInventoryPage() {
  const [view, setView] = useState<View>({ view: 'list' });
  const back = () => setView({ view: 'list' });
  if (view.view === 'count') return <CountingScreen sheetId={view.sheetId} onBack={back} />;
  if (view.view === 'review') return <ReviewScreen sheetId={view.sheetId} onBack={back} />;
  return (
    <SheetList onCount={(sheetId) => setView({ view: 'count', sheetId })} onReview={(sheetId) => setView({ view: 'review', sheetId })} />
  );
}
