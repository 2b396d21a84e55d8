import { SOCKET_RETRY_INITIAL_MS, SOCKET_RETRY_MAX_MS } from '@floorhand/contract/constants';

/** Retry delay after the n-th consecutive connect error (0-based): 1 s doubling, capped at 32 s. */
export const retryDelayMs = (attempt: number): number => Math.min(SOCKET_RETRY_INITIAL_MS * 2 ** Math.max(0, attempt), SOCKET_RETRY_MAX_MS);

/** Drops an event whose id is not newer than the last one seen for its type. */
export function createEventOrder() {
  const last = new Map<string, number>();
  return {
    accept(type: string, eventId: number): boolean {
      const prev = last.get(type);
      if (prev !== undefined && eventId <= prev) return false;
      last.set(type, eventId);
      return true;
    },
    reset(): void {
      last.clear();
    },
  };
}
