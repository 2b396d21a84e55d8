import { createJSONStorage, type StateStorage } from 'zustand/middleware';

// Local-storage failures (private mode, quota) are only logged (spec section 8).
const safeLocalStorage: StateStorage = {
  getItem(name) {
    try {
      return localStorage.getItem(name);
    } catch (e) {
      console.warn(`local storage: cannot read ${name}`, e);
      return null;
    }
  },
  setItem(name, value) {
    try {
      localStorage.setItem(name, value);
    } catch (e) {
      console.warn(`local storage: cannot write ${name}`, e);
    }
  },
  removeItem(name) {
    try {
      localStorage.removeItem(name);
    } catch (e) {
      console.warn(`local storage: cannot remove ${name}`, e);
    }
  },
};

export const persistedStorage = createJSONStorage(() => safeLocalStorage);
