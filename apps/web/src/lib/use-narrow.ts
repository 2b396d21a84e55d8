import { useMediaQuery } from '@mantine/hooks';
import { UI_BREAKPOINTS } from '@floorhand/contract/constants';

/**
 * Whether the screen is a handheld's (below the toolkit's sm breakpoint): lists show cards instead of
 * tables. Read at once rather than after the first paint, so a desktop never flashes the cards.
 */
export const useNarrow = (): boolean =>
  useMediaQuery(`(max-width: ${UI_BREAKPOINTS.sm - 0.02}px)`, false, { getInitialValueInEffect: false });
