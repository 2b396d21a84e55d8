import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import '../../lib/i18n.ts';
import { activeFilterCount, FilterFold } from './filter-fold.tsx';

afterEach(cleanup);

const renderFold = (narrow: boolean, active: number) =>
  render(
    <MantineProvider>
      <FilterFold narrow={narrow} active={active} testId="fold">
        <input aria-label="Warehouse" />
      </FilterFold>
    </MantineProvider>,
  );

describe('FilterFold', () => {
  it('counts values that are set and switches that are on', () => {
    expect(activeFilterCount([null, undefined, '', false])).toBe(0);
    expect(activeFilterCount(['WH1', null, 'so', true, false])).toBe(3);
  });

  it('shows the filters as they are on a wide screen', () => {
    renderFold(false, 2);
    expect(screen.queryByTestId('fold')).toBeNull();
    expect(screen.getByLabelText('Warehouse')).toBeTruthy();
  });

  it('folds them behind one button that counts the active ones on a narrow screen', () => {
    renderFold(true, 2);
    const button = screen.getByTestId('fold');
    expect(button.textContent).toBe('Filters (2)');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(button.getAttribute('aria-controls')!)).toBe(screen.getByTestId('fold-panel'));
  });

  it('says Filters alone when none is active', () => {
    renderFold(true, 0);
    expect(screen.getByTestId('fold').textContent).toBe('Filters');
  });
});
