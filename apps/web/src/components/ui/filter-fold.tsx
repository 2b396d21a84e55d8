import { useId, useState, type ReactNode } from 'react';
import { Button, Collapse, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconChevronDown, IconFilter } from '@tabler/icons-react';
import { useNarrow } from '../../lib/use-narrow.ts';

/** How many of a list's filters narrow it now: each value that is set (a text, a choice, a switch that is on). */
export const activeFilterCount = (values: readonly unknown[]): number =>
  values.filter((v) => v !== null && v !== undefined && v !== '' && v !== false).length;

export interface FilterFoldProps {
  /** How many filters are active: the button says "Filters (2)". */
  active: number;
  children: ReactNode;
  /** Force the layout (default: folded when the screen is narrow, as the lists turn into cards). */
  narrow?: boolean;
  testId?: string;
}

/**
 * A list's filters on a handheld: folded behind one "Filters" button that counts the active ones, so
 * the orders or sheets come first on a 360 px screen (issue 24 item 7). On wider screens the filters
 * show as they are.
 */
export function FilterFold({ active, children, narrow, testId }: FilterFoldProps) {
  const { t } = useTranslation();
  const screenNarrow = useNarrow();
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!(narrow ?? screenNarrow)) return <>{children}</>;
  return (
    <Stack gap="xs">
      <Button
        variant="default"
        leftSection={<IconFilter size={20} aria-hidden />}
        rightSection={<IconChevronDown size={20} aria-hidden style={{ transform: open ? 'rotate(180deg)' : undefined }} />}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        data-testid={testId}
        data-active={active}
        style={{ alignSelf: 'flex-start' }}
      >
        {active > 0 ? t('Filters ({{n}})', { n: active }) : t('Filters')}
      </Button>
      <Collapse in={open} id={id} data-testid={testId && `${testId}-panel`}>
        {children}
      </Collapse>
    </Stack>
  );
}
