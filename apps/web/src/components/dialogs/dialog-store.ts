import type { ReactNode } from 'react';
import { create } from 'zustand';
import type { ServerErr } from '@floorhand/contract/errors';

export type ConfirmType = 'info' | 'warn' | 'question' | 'success' | 'failure' | 'error';
export type ConfirmResult = 'ok' | 'neu' | 'neg' | 'pos' | 'cancel';

export interface InfoSpec {
  kind: 'info';
  title: ReactNode;
  caption?: ReactNode;
  message: ReactNode;
  type?: ConfirmType;
}
export interface ConfirmSpec {
  kind: 'confirm';
  type: ConfirmType;
  title: ReactNode;
  message: ReactNode;
  /** A button shows only when it has a label. */
  neu?: string;
  neg?: string;
  pos?: string;
  /** Close by itself (result cancel) after this many ms unless the user clicks or presses a key. */
  autoCloseMs?: number;
  focus?: 'neu' | 'neg' | 'pos';
}
export interface ErrorSpec {
  kind: 'error';
  err: ServerErr;
}
export interface LoggedOutSpec {
  kind: 'loggedOut';
}
export interface CameraMissingSpec {
  kind: 'cameraMissing';
  reason: 'notConfigured' | 'inaccessible';
  /** Offer "Image file" (answers 'pos'): the scanner reads files without a camera. */
  imageFile?: boolean;
}
export interface DeleteSpec {
  kind: 'delete';
  what: string;
}

export type DialogSpec = InfoSpec | ConfirmSpec | ErrorSpec | LoggedOutSpec | CameraMissingSpec | DeleteSpec;

export interface OpenDialog {
  id: number;
  spec: DialogSpec;
  resolve(result: ConfirmResult): void;
}

interface DialogState {
  open: OpenDialog[];
  push(spec: DialogSpec): Promise<ConfirmResult>;
  close(id: number, result: ConfirmResult): void;
  closeAll(): void;
}

let nextId = 1;

export const useDialogStore = create<DialogState>()((set, get) => ({
  open: [],
  push: (spec) =>
    new Promise<ConfirmResult>((resolve) => {
      set((s) => ({ open: [...s.open, { id: nextId++, spec, resolve }] }));
    }),
  close: (id, result) => {
    const d = get().open.find((o) => o.id === id);
    set((s) => ({ open: s.open.filter((o) => o.id !== id) }));
    d?.resolve(result);
  },
  closeAll: () => {
    const all = get().open;
    set({ open: [] });
    for (const d of all) d.resolve('cancel');
  },
}));

const push = (spec: DialogSpec) => useDialogStore.getState().push(spec);

/** The shared dialogs of spec section 2, callable from anywhere (guards, the request helper, pages). */
export const dialogs = {
  info: (p: Omit<InfoSpec, 'kind'>): Promise<ConfirmResult> => push({ kind: 'info', ...p }),
  confirm: (p: Omit<ConfirmSpec, 'kind'>): Promise<ConfirmResult> => push({ kind: 'confirm', ...p }),
  error: (err: ServerErr): Promise<ConfirmResult> => push({ kind: 'error', err }),
  loggedOut: (): Promise<ConfirmResult> => push({ kind: 'loggedOut' }),
  cameraMissing: (reason: CameraMissingSpec['reason'], opts: { imageFile?: boolean } = {}): Promise<ConfirmResult> =>
    push({ kind: 'cameraMissing', reason, ...opts }),
  /** Resolves true when the user chose Delete. */
  confirmDelete: async (what: string): Promise<boolean> => (await push({ kind: 'delete', what })) === 'pos',
};
