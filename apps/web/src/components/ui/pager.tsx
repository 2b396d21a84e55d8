import { Button, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { MIN_TOUCH_TARGET_PX } from '@floorhand/contract/constants';
import './pager.css';

// The one paging pattern of Floorhand's lists (under a DataTable): Previous and Next buttons, a
// whole touch target each, around "Rows a–b of n" (without "of n" when the server does not count).
// See docs/architecture.md (web) for why not page numbers or "Show more".

export interface PagerProps {
  /** The first row shown (0-based offset) and how many rows the page holds. */
  offset: number;
  count: number;
  /** All rows, when the server counts them. */
  total?: number;
  /** Whether a later page exists. */
  more: boolean;
  onPrevious(): void;
  onNext(): void;
  /** While the next page loads: both buttons wait and no range is claimed for it. */
  busy?: boolean;
  /** Button texts (default "Previous" and "Next"). */
  previousLabel?: string;
  nextLabel?: string;
  /** The range line in the list's own word (e.g. "Lines 1–100 of 250"); default "Rows a–b of n". */
  rangeText?(range: PageRange): string;
  /** Prefix of the test ids: `<p>-pager`, `<p>-page-prev`, `<p>-page-range`, `<p>-page-next`. */
  testId?: string;
}

export interface PageRange {
  from: number;
  to: number;
  total?: number;
}

/** The rows a page shows, 1-based ("1–100"); an empty page is 0–0. */
export const pageRange = (p: Pick<PagerProps, 'offset' | 'count' | 'total'>): PageRange => ({
  from: p.count ? p.offset + 1 : 0,
  to: p.offset + p.count,
  total: p.total,
});

/** Nothing while all rows fit on one page. */
export function Pager(p: PagerProps) {
  const { t } = useTranslation();
  if (p.offset === 0 && !p.more) return null;
  const range = pageRange(p);
  const id = (part: string) => (p.testId ? `${p.testId}-${part}` : undefined);
  return (
    <Group gap="sm" justify="center" wrap="nowrap" className="fh-pager" data-testid={id('pager')}>
      <Button
        variant="default"
        size="md"
        mih={MIN_TOUCH_TARGET_PX}
        leftSection={<IconChevronLeft size={18} />}
        disabled={p.offset === 0 || p.busy}
        onClick={p.onPrevious}
        data-testid={id('page-prev')}
      >
        {p.previousLabel ?? t('Previous')}
      </Button>
      {p.busy ? (
        <Loader size="sm" />
      ) : (
        <Text size="sm" ta="center" aria-live="polite" className="fh-pager-range" data-testid={id('page-range')}>
          {p.rangeText
            ? p.rangeText(range)
            : range.total === undefined
              ? t('Rows {{from}}–{{to}}', { from: range.from, to: range.to })
              : t('Rows {{from}}–{{to}} of {{total}}', { from: range.from, to: range.to, total: range.total })}
        </Text>
      )}
      <Button
        variant="default"
        size="md"
        mih={MIN_TOUCH_TARGET_PX}
        rightSection={<IconChevronRight size={18} />}
        disabled={!p.more || p.busy}
        onClick={p.onNext}
        data-testid={id('page-next')}
      >
        {p.nextLabel ?? t('Next')}
      </Button>
    </Group>
  );
}
