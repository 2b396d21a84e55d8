import { create } from 'zustand';

// Lookups scanned while the server could not be reached and with no answer in the cache: kept "to
// check" and looked up when the connection returns. They are the person's: the read cache persists
// them with the person's cached answers and forgets them when the person's session ends.

export const TO_CHECK_MAX = 20;

interface ToCheckState {
  values: string[];
  add(value: string): void;
  remove(value: string): void;
}

export const useToCheckStore = create<ToCheckState>()((set) => ({
  values: [],
  // Oldest first (they are looked up in the order scanned), each once, the newest kept.
  add: (value) => set((s) => ({ values: [...s.values.filter((v) => v !== value), value].slice(-TO_CHECK_MAX) })),
  remove: (value) => set((s) => ({ values: s.values.filter((v) => v !== value) })),
}));
